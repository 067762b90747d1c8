## tests/xfer/local.mk -- the transfer engine, through cp and dd.
