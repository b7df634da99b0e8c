# Installing and packaging, included by the Makefile: `make lib` builds libcomm as a shared
# and a static library; `make install` / `make uninstall` with the usual variables
# (PREFIX DESTDIR BINDIR LIBDIR INCLUDEDIR MANDIR ...); `make deb` the Debian packages.
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# where each shell looks for completions under a prefix (Debian's zsh: make deb overrides)
BASHCOMPDIR  ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR   ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR  ?= $(DATADIR)/fish/vendor_completions.d
INSTALL      ?= install

# libcomm.so.MAJOR is the SONAME: programs built against 0.x load any later 0.y.
SOMAJOR       := $(firstword $(subst ., ,$(VERSION)))
LIBCOMM_REAL  := libcomm.so.$(VERSION)
LIBCOMM_SONAME := libcomm.so.$(SOMAJOR)
# libcomm needs only libc and libcrypto (HMAC of the rendezvous); -z defs makes a new
# dependency a link error naming the symbol, rather than a library that fails at load time.
LIBCOMM_LIBS  := -lcrypto -lpthread
LIBCOMM_SRC   := $(wildcard libcomm/*.c ranktable/base/*.c)
LIBCOMM_PIC   := $(LIBCOMM_SRC:%.c=$(O)/pic/%.o)
LIBCOMM_OBJ   := $(LIBCOMM_SRC:%.c=$(O)/%.o)
LIB_OUT       := $(O)/lib
MAN_PAGES     := $(wildcard man/*.1)

.PHONY: lib install uninstall deb
all: lib
lib: $(LIB_OUT)/$(LIBCOMM_REAL) $(LIB_OUT)/libcomm.a

$(O)/pic/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(LIB_OUT)/$(LIBCOMM_REAL): $(LIBCOMM_PIC) libcomm/libcomm.map
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(LIBCOMM_SONAME) -Wl,--version-script,libcomm/libcomm.map \
	  -Wl,-z,defs -Wl,--as-needed -o $@ $(LIBCOMM_PIC) $(LIBCOMM_LIBS)
	ln -sf $(LIBCOMM_REAL) $(LIB_OUT)/$(LIBCOMM_SONAME)
	ln -sf $(LIBCOMM_SONAME) $(LIB_OUT)/libcomm.so

# One relocatable object with only the comm_ names left global, so the static library hides
# the comm__ internals from the program it goes into as the shared one does.
$(LIB_OUT)/libcomm.a: $(LIBCOMM_OBJ)
	@mkdir -p $(@D)
	$(LD) -r -o $(LIB_OUT)/libcomm.o $(LIBCOMM_OBJ)
	objcopy --wildcard --keep-global-symbol='comm_[!_]*' $(LIB_OUT)/libcomm.o
	@rm -f $@
	$(AR) rcs $@ $(LIB_OUT)/libcomm.o

# Everything install puts, so that uninstall removes exactly that.
INSTALLED = $(BINDIR)/hcclctl \
	$(LIBDIR)/$(LIBCOMM_REAL) $(LIBDIR)/$(LIBCOMM_SONAME) $(LIBDIR)/libcomm.so \
	$(LIBDIR)/libcomm.a $(INCLUDEDIR)/libcomm.h $(PKGCONFIGDIR)/libcomm.pc \
	$(addprefix $(MANDIR)/man1/,$(notdir $(MAN_PAGES))) \
	$(BASHCOMPDIR)/hcclctl $(ZSHCOMPDIR)/_hcclctl $(FISHCOMPDIR)/hcclctl.fish

# libdir and includedir relative to ${prefix} where they lie under it, so that
# pkg-config --define-prefix can move the tree
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

install: $(BIN) lib
	$(INSTALL) -d $(addprefix $(DESTDIR),$(BINDIR) $(LIBDIR) $(INCLUDEDIR) $(PKGCONFIGDIR) \
	  $(MANDIR)/man1 $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR))
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(BINDIR)/hcclctl
	$(INSTALL) -m 755 $(LIB_OUT)/$(LIBCOMM_REAL) $(DESTDIR)$(LIBDIR)/$(LIBCOMM_REAL)
	ln -sf $(LIBCOMM_REAL) $(DESTDIR)$(LIBDIR)/$(LIBCOMM_SONAME)
	ln -sf $(LIBCOMM_SONAME) $(DESTDIR)$(LIBDIR)/libcomm.so
	$(INSTALL) -m 644 $(LIB_OUT)/libcomm.a $(DESTDIR)$(LIBDIR)/libcomm.a
	$(INSTALL) -m 644 libcomm/libcomm.h $(DESTDIR)$(INCLUDEDIR)/libcomm.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	  -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	  libcomm/libcomm.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/libcomm.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/libcomm.pc
	$(INSTALL) -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 completions/hcclctl.bash $(DESTDIR)$(BASHCOMPDIR)/hcclctl
	$(INSTALL) -m 644 completions/_hcclctl $(DESTDIR)$(ZSHCOMPDIR)/_hcclctl
	$(INSTALL) -m 644 completions/hcclctl.fish $(DESTDIR)$(FISHCOMPDIR)/hcclctl.fish

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# The packages are cut from a staged install under /usr; packaging/deb.sh says which file
# goes into which package and finds the runtime dependencies. Evaluated only here.
DEB_ARCH      = $(shell dpkg --print-architecture)
DEB_MULTIARCH = $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || $(CC) -print-multiarch)
DEB_OUT       := $(O)/deb

# The libraries hcclctl opens at run time are no NEEDED entry of its own: a program that
# links them stands in for them before dpkg-shlibdeps.
$(DEB_OUT)/dlopened: packaging/dlopened.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(shell pkg-config --libs libcurl 2>/dev/null || echo -lcurl)

deb: $(BIN) lib $(DEB_OUT)/dlopened
	rm -rf $(DEB_OUT)/stage
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_OUT)/stage) PREFIX=/usr \
	  LIBDIR=/usr/lib/$(DEB_MULTIARCH) ZSHCOMPDIR=/usr/share/zsh/vendor-completions
	sh packaging/deb.sh $(DEB_OUT)/stage $(DEB_OUT) $(VERSION) $(DEB_ARCH) $(DEB_OUT)/dlopened
