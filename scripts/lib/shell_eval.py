#!/usr/bin/env python3
"""`shell_eval.py EXPRESSION`: evaluates EXPRESSION in GNOME Shell (org.gnome.Shell.Eval, which
needs unsafe mode: scripts/lib/gnome-shell-harness) and prints its value as JSON. Exits 1 when the
shell refuses or the expression throws (the error on stderr), 2 when the shell does not answer."""
import sys
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

try:
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    success, result = bus.call_sync("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                                    GLib.Variant("(s)", (sys.argv[1],)), GLib.VariantType("(bs)"),
                                    Gio.DBusCallFlags.NONE, 10000, None).unpack()
except GLib.Error as error:
    print(error.message, file=sys.stderr)
    sys.exit(2)
if not success:
    print(result or "Eval refused (no unsafe mode?)", file=sys.stderr)
    sys.exit(1)
print(result)
