// The GLib-only half of the desktop layer (config file, parent watch, where the programs are)
// lives in HeadlinesGLib; every user of HeadlinesDesktop sees it as its own.
@_exported import HeadlinesGLib
