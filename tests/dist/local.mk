## tests/dist/local.mk -- installing: names, the installed programs,
## uninstalling.  (The Debian package is tested by "make deb-check".)

TESTS += \
  tests/dist/gnu-oracle.sh \
  tests/dist/install-drop-in.sh \
  tests/dist/install-transform.sh \
  tests/dist/uninstall.sh

EXTRA_DIST += $(filter tests/dist/%, $(TESTS)) tests/dist/install-helpers.sh

## "make installcheck" (run by distcheck on its installed copy): the
## installed programs start and know their names.
installcheck-local: installcheck-programs
.PHONY: installcheck-programs
installcheck-programs:
	@for p in cp dd; do \
	  f=`echo $$p | sed '$(transform)'`; \
	  echo "$(DESTDIR)$(bindir)/$$f --version"; \
	  v=`"$(DESTDIR)$(bindir)/$$f" --version` || exit 1; \
	  case $$v in \
	    "$$p (cpdd) "*) ;; \
	    *) echo "unexpected version output: $$v" >&2; exit 1 ;; \
	  esac; \
	done
