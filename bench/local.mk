## bench/local.mk -- benchmark tools (cpdd-bench).
