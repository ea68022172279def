# `make demo` and `make test` are the two commands a newcomer needs (see README.md).
# Every target installs its own Debian packages first through scripts/install-deps.sh: `build` and
# `demo` only the runtime set (`deps`), `test`, `bench` and `hostile` the runtime and test sets
# (`test-deps`: sway, waybar, dunst, valgrind ... are for the suites, never for a demo). `check`
# installs nothing: it is the contributor's loop on a machine with only the toolchain and the build set.
SHELL := /bin/bash
# Prefer a swift already on PATH; fall back to the toolchain at /opt/swift.
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps test-deps build release-flags demo test check bench hostile clean release-static install uninstall deb tsan tsan-build install-gnome-shell

deps:
	scripts/install-deps.sh

test-deps:
	scripts/install-deps.sh --test

# The same flags as install, so switching between the two never relinks. The release build has a
# build folder of its own (RELEASE_SCRATCH), so it never waits on SwiftPM's lock of .build, where
# a debug build or a test run may be going on: `make test` builds it beside the unit tests.
RELEASE_SCRATCH = .build/make
SWIFT_RELEASE_FLAGS = -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH)
build: deps
	$(SWIFT_RELEASE)

# The release build's flags, for scripts that build or find its programs (one definition, here).
release-flags:
	@echo $(SWIFT_RELEASE_FLAGS)

# make demo [DEMO_ARGS="--duration 20s"]: the demo runs until Ctrl-C, or for that long.
DEMO_ARGS ?=
demo: deps build
	"$$(swift build $(SWIFT_RELEASE_FLAGS) --show-bin-path)/headlines" demo $(DEMO_ARGS)

test: test-deps
	scripts/test.sh

# The contributor's inner loop: the build, the unit tests and the fast checks, as a normal user,
# with nothing installed beyond the toolchain and the build's libraries (no apt, no root).
check:
	scripts/test.sh --check

bench: test-deps
	Benchmarks/bench.sh

clean:
	swift package clean
	rm -rf $(RELEASE_SCRATCH)

# ThreadSanitizer over the host, timeline, notification and desktop tests, in its own build folder
# so it never invalidates the ordinary debug build. Fails on any report, also from a `headlines`
# the tests start (each process writes its reports to $(TSAN_LOGS)/report.PID). atexit_sleep_ms=0:
# TSan otherwise sleeps 1 s in every exit, which the host's "stops within a second" tests notice.
# `make tsan-build` is the build alone (scripts/test.sh starts it early, beside the unit tests);
# `make tsan` builds what is not built yet, then runs the tests, each in a process of its own
# (--parallel): no test leans on ordering another one left behind, and as most of them wait on a
# host, three run at once.
# Left out (TSAN_SKIP): the long manual-clock simulations (a week of reloads, a two-hour crash loop)
# and the 40,000-id seen set, single-threaded runs of code that the shorter tests of the same classes
# take through TSan too; repeating it for minutes under TSan finds no race those do not.
TSAN_LOGS = .build/tsan-reports
TSAN_SWIFT_FLAGS = --sanitize=thread --scratch-path .build/tsan
# In HeadlinesCoreTests: the engine's timeline classes (reloads, budget, clock) and the notification,
# seen-set and durable cache write ones.
TSAN_CORE_CLASSES = Backoff|BarClock|Budget|ExplicitDecision|HeadlinesTimelineProvider|HostEngine|LedgerGrowth|RefreshLedger|ReloadPolicy|RotationWhileReloading|Surroundings|UntrustedClock|Notification|SeenSet|CacheDurable
TSAN_FILTER = ^(HostTests|HeadlinesDesktopTests|HeadlinesGLibTests)\.|^HeadlinesCoreTests\.($(TSAN_CORE_CLASSES))
TSAN_SKIP = BudgetSimulationTests/testAWeekAtHalfHourly|BudgetSimulationTests/testAHundredRestartsInAWeek|BackoffTests/testACrashLoopAgainstAFailingSource|SeenSetSizeTests/testAnOverlongButValidSeenFile
tsan-build:
	HEADLINES_TSAN=1 swift build --build-tests $(TSAN_SWIFT_FLAGS)
tsan: tsan-build
	rm -rf "$(TSAN_LOGS)" && mkdir -p "$(TSAN_LOGS)"
	@status=0; HEADLINES_TSAN=1 TSAN_OPTIONS="halt_on_error=0 atexit_sleep_ms=0 log_path=$(CURDIR)/$(TSAN_LOGS)/report" \
		swift test --skip-build --parallel --num-workers 3 $(TSAN_SWIFT_FLAGS) --filter '$(TSAN_FILTER)' --skip '$(TSAN_SKIP)' || status=$$?; \
	if ls "$(TSAN_LOGS)"/report* >/dev/null 2>&1; then \
		echo "ThreadSanitizer reported races:"; cat "$(TSAN_LOGS)"/report*; exit 1; \
	else echo "ThreadSanitizer: no reports"; fi; \
	[ $$status -eq 0 ] || { echo "the tests under ThreadSanitizer failed (status $$status)"; exit $$status; }

# ---- Install, uninstall, Debian package ---------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=/staging]   builds release (static Swift stdlib) first
# make uninstall [PREFIX=...] [DESTDIR=...]            removes exactly the files install wrote
# make deb                                             build/headlines_VERSION_ARCH.deb
# Neither install nor uninstall runs deps: they are also run by users who built elsewhere.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/headlines
DATADIR = $(PREFIX)/share
MANDIR = $(DATADIR)/man
DOCDIR = $(DATADIR)/doc/headlines
DEMODIR = $(DATADIR)/headlines/demo
USERUNITDIR = $(PREFIX)/lib/systemd/user
# Five programs ship. The two a user runs go in $(BINDIR): headlines (the CLI) and headlines-bar
# (the fully static bar program). The three only other programs start go in $(LIBEXECDIR), off
# PATH: headlines-host (the resident host `headlines run` execs), headlines-reload (the host's
# reload child) and headlines-fetch (the commands `headlines` hands over that fetch or parse).
# Each finds the others beside itself or in ../libexec/headlines.
USER_PROGRAMS = headlines headlines-bar
INTERNAL_PROGRAMS = headlines-host headlines-reload headlines-fetch
PROGRAMS = $(USER_PROGRAMS) $(INTERNAL_PROGRAMS)
SWIFT_RELEASE = for p in $(PROGRAMS); do swift build $(SWIFT_RELEASE_FLAGS) --product $$p || exit 1; done
# Every bar's snippet (packaging/bars/BAR/FILE) goes to $(DOCDIR)/bars/BAR/FILE, beside bars.md,
# which says what each format prints; scripts keep their executable bit.
BAR_SNIPPETS = $(sort $(wildcard packaging/bars/*/*))
BAR_DOCS = $(patsubst packaging/bars/%,share/doc/headlines/bars/%,$(BAR_SNIPPETS))
BAR_DOC_DIRS = $(sort $(patsubst %/,%,$(dir $(BAR_DOCS))))
# The Plasma applet (packaging/plasma/ID/...) goes to $(DATADIR)/plasma/plasmoids/ID/..., where
# Plasma looks for installed applets.
PLASMA_APPLET = packaging/plasma/org.headlines.headlines
PLASMA_SOURCES = $(PLASMA_APPLET)/metadata.json $(sort $(wildcard $(PLASMA_APPLET)/contents/ui/*.qml))
PLASMA_FILES = $(patsubst packaging/plasma/%,share/plasma/plasmoids/%,$(PLASMA_SOURCES))

# The GNOME Shell extension (packaging/gnome-shell/): the shared indicator.js and the entry point
# for the shell that is installed here, found by its version: GNOME 45 and later load ES modules
# (modules/), GNOME 43-44 scripts (legacy/, also when no gnome-shell is installed, as when the
# .deb for Debian 12 is built). GNOME_SHELL_ENTRY=legacy|modules chooses by hand.
GNOME_SHELL_EXTENSION = share/gnome-shell/extensions/headlines@headlines.org
GNOME_SHELL_ENTRY ?= $(shell v=$$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p'); \
	[ -n "$$v" ] && [ "$$v" -ge 45 ] && echo modules || echo legacy)

# Every installed file, relative to $(DESTDIR)$(PREFIX): uninstall removes these and nothing else.
# headlines-bar.1.gz is a symlink to headlines.1.gz, which describes `headlines-bar waybar` and
# `headlines-bar i3blocks`; headlines-bar's bash and fish completions are links to headlines', whose
# files complete both (those shells load a command's completion from the file of its name).
INSTALLED_FILES = \
	bin/headlines \
	bin/headlines-bar \
	libexec/headlines/headlines-host \
	libexec/headlines/headlines-reload \
	libexec/headlines/headlines-fetch \
	share/man/man1/headlines.1.gz \
	share/man/man1/headlines-bar.1.gz \
	share/man/man5/headlines.conf.5.gz \
	share/applications/headlines.desktop \
	share/icons/hicolor/scalable/apps/headlines.svg \
	lib/systemd/user/headlines.service \
	share/dbus-1/services/org.headlines.Headlines.service \
	share/dbus-1/interfaces/org.headlines.Headlines1.xml \
	share/bash-completion/completions/headlines \
	share/bash-completion/completions/headlines-bar \
	share/zsh/vendor-completions/_headlines \
	share/fish/vendor_completions.d/headlines.fish \
	share/fish/vendor_completions.d/headlines-bar.fish \
	share/doc/headlines/copyright \
	share/doc/headlines/README.md \
	share/doc/headlines/waybar/config.jsonc \
	share/doc/headlines/waybar/style.css \
	share/doc/headlines/i3blocks/headlines.conf \
	share/doc/headlines/dunst/headlines.dunstrc \
	share/doc/headlines/examples/follow-headlines \
	share/doc/headlines/bars.md \
	$(BAR_DOCS) \
	$(PLASMA_FILES) \
	share/headlines/demo/apitube/top-headlines-fl.json \
	share/headlines/demo/demo/arrivals.json \
	$(GNOME_SHELL_EXTENSION)/metadata.json \
	$(GNOME_SHELL_EXTENSION)/indicator.js \
	$(GNOME_SHELL_EXTENSION)/extension.js
# Folders of our own, removed by uninstall when empty (deepest first).
INSTALLED_DIRS = \
	libexec/headlines \
	share/doc/headlines/waybar share/doc/headlines/i3blocks share/doc/headlines/dunst share/doc/headlines/examples \
	$(BAR_DOC_DIRS) share/doc/headlines/bars \
	share/doc/headlines share/headlines/demo/apitube share/headlines/demo/demo \
	share/headlines/demo share/headlines \
	$(GNOME_SHELL_EXTENSION) \
	share/plasma/plasmoids/org.headlines.headlines/contents/ui share/plasma/plasmoids/org.headlines.headlines/contents \
	share/plasma/plasmoids/org.headlines.headlines

release-static:
	$(SWIFT_RELEASE)

# The programs are installed stripped: symbol tables and debug information are about half their
# size, and the Swift runtime reads its metadata from sections that strip keeps. .comment (the
# compilers' version strings) goes too, as dh_strip does.
# share/doc/headlines/copyright (packaging/deb/copyright, the .deb's too) gives the licences of
# this code and of the Swift runtime that every program carries.
install: release-static install-gnome-shell
	@set -e; d="$(DESTDIR)$(PREFIX)"; \
	bin="$$(swift build $(SWIFT_RELEASE_FLAGS) --show-bin-path)"; \
	install -d -m 755 "$$d/bin" "$$d/libexec/headlines" "$$d/share/man/man1" "$$d/share/man/man5" \
		"$$d/share/applications" "$$d/share/icons/hicolor/scalable/apps" "$$d/lib/systemd/user" \
		"$$d/share/dbus-1/services" "$$d/share/dbus-1/interfaces" \
		"$$d/share/bash-completion/completions" "$$d/share/zsh/vendor-completions" "$$d/share/fish/vendor_completions.d" \
		"$$d/share/doc/headlines/waybar" "$$d/share/doc/headlines/i3blocks" "$$d/share/doc/headlines/dunst" \
		"$$d/share/doc/headlines/examples" "$$d/share/headlines/demo/apitube" "$$d/share/headlines/demo/demo"; \
	for p in $(USER_PROGRAMS); do install -m 755 "$$bin/$$p" "$$d/bin/$$p"; done; \
	for p in $(INTERNAL_PROGRAMS); do install -m 755 "$$bin/$$p" "$$d/libexec/headlines/$$p"; done; \
	(cd "$$d" && strip --remove-section=.comment $(addprefix bin/,$(USER_PROGRAMS)) \
		$(addprefix libexec/headlines/,$(INTERNAL_PROGRAMS))); \
	gzip -9n < packaging/man/headlines.1 > "$$d/share/man/man1/headlines.1.gz"; \
	gzip -9n < packaging/man/headlines.conf.5 > "$$d/share/man/man5/headlines.conf.5.gz"; \
	chmod 644 "$$d/share/man/man1/headlines.1.gz" "$$d/share/man/man5/headlines.conf.5.gz"; \
	ln -sf headlines.1.gz "$$d/share/man/man1/headlines-bar.1.gz"; \
	install -m 644 packaging/headlines.desktop "$$d/share/applications/headlines.desktop"; \
	install -m 644 packaging/icons/headlines.svg "$$d/share/icons/hicolor/scalable/apps/headlines.svg"; \
	sed 's|^ExecStart=/usr/bin/headlines |ExecStart=$(BINDIR)/headlines |' packaging/systemd/headlines.service \
		> "$$d/lib/systemd/user/headlines.service"; \
	chmod 644 "$$d/lib/systemd/user/headlines.service"; \
	sed 's|^Exec=/usr/bin/headlines |Exec=$(BINDIR)/headlines |' packaging/dbus/org.headlines.Headlines.service \
		> "$$d/share/dbus-1/services/org.headlines.Headlines.service"; \
	chmod 644 "$$d/share/dbus-1/services/org.headlines.Headlines.service"; \
	install -m 644 packaging/dbus/org.headlines.Headlines1.xml "$$d/share/dbus-1/interfaces/org.headlines.Headlines1.xml"; \
	install -m 755 packaging/dbus/examples/follow-headlines "$$d/share/doc/headlines/examples/follow-headlines"; \
	install -m 644 packaging/completions/headlines.bash "$$d/share/bash-completion/completions/headlines"; \
	install -m 644 packaging/completions/_headlines "$$d/share/zsh/vendor-completions/_headlines"; \
	install -m 644 packaging/completions/headlines.fish "$$d/share/fish/vendor_completions.d/headlines.fish"; \
	ln -sf headlines "$$d/share/bash-completion/completions/headlines-bar"; \
	ln -sf headlines.fish "$$d/share/fish/vendor_completions.d/headlines-bar.fish"; \
	install -m 644 packaging/deb/copyright "$$d/share/doc/headlines/copyright"; \
	install -m 644 README.md "$$d/share/doc/headlines/README.md"; \
	install -m 644 packaging/waybar/config.jsonc packaging/waybar/style.css "$$d/share/doc/headlines/waybar/"; \
	install -m 644 packaging/i3blocks/headlines.conf "$$d/share/doc/headlines/i3blocks/headlines.conf"; \
	install -m 644 packaging/dunst/headlines.dunstrc "$$d/share/doc/headlines/dunst/headlines.dunstrc"; \
	install -m 644 docs/bars.md "$$d/share/doc/headlines/bars.md"; \
	for f in $(BAR_SNIPPETS); do \
		to="$$d/share/doc/headlines/bars/$${f#packaging/bars/}"; install -d -m 755 "$${to%/*}"; \
		if [ -x "$$f" ]; then install -m 755 "$$f" "$$to"; else install -m 644 "$$f" "$$to"; fi; \
	done; \
	for f in $(PLASMA_SOURCES); do \
		to="$$d/share/plasma/plasmoids/$${f#packaging/plasma/}"; install -d -m 755 "$${to%/*}"; install -m 644 "$$f" "$$to"; \
	done; \
	install -m 644 Fixtures/apitube/top-headlines-fl.json "$$d/share/headlines/demo/apitube/top-headlines-fl.json"; \
	install -m 644 Fixtures/demo/arrivals.json "$$d/share/headlines/demo/demo/arrivals.json"
	@echo "installed headlines into $(DESTDIR)$(PREFIX)"

# The extension alone (scripts/suites/gnome-shell.sh installs it so, into a folder of its own).
install-gnome-shell:
	@set -e; d="$(DESTDIR)$(PREFIX)/$(GNOME_SHELL_EXTENSION)"; install -d -m 755 "$$d"; \
	install -m 644 packaging/gnome-shell/metadata.json packaging/gnome-shell/indicator.js "$$d/"; \
	install -m 644 packaging/gnome-shell/$(GNOME_SHELL_ENTRY)/extension.js "$$d/extension.js"

uninstall:
	@set -e; d="$(DESTDIR)$(PREFIX)"; \
	for f in $(INSTALLED_FILES); do rm -f "$$d/$$f"; done; \
	for dir in $(INSTALLED_DIRS); do rmdir "$$d/$$dir" 2>/dev/null || true; done
	@echo "removed headlines from $(DESTDIR)$(PREFIX)"

# The .deb is the PREFIX=/usr install plus what only a Debian package has (build-deb.sh: the
# changelog, the lintian override, DEBIAN/).
deb: release-static
	rm -rf build/deb-root
	install -d -m 755 build/deb-root
	$(MAKE) --no-print-directory install DESTDIR="$(CURDIR)/build/deb-root" PREFIX=/usr
	packaging/deb/build-deb.sh build/deb-root build

hostile: test-deps
	scripts/hostile.sh
