// The GLib-only half of the desktop layer (config file, parent watch, where the programs are)
// lives in HeadlinesGLib, which the static reload child links without GIO or libnotify; every
// user of HeadlinesDesktop sees it as before.
@_exported import HeadlinesGLib
