#!/usr/bin/python3
"""A notification server for the suites (spec 1.2): `notification_server.py CAPS-FILE LOG
[INHIBITED-FILE [NAME]]`. Owns org.freedesktop.Notifications; answers GetCapabilities from CAPS-FILE
(names separated by spaces) and the Inhibited property from INHIBITED-FILE ("true" or not; false
when it is missing or ""), both read at each call, so they change without the name changing hands; appends
each Notify call to LOG as a JSON line {"summary", "body", "actions", "hints"}. NAME is the
name GetServerInformation gives (headlines-suite-server unless given; gnome-shell to stand in
for GNOME Shell).
Needs Debian's python3-gi, hence /usr/bin/python3."""
import json, sys
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib
caps_file, log = sys.argv[1], sys.argv[2]
inhibited_file = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
server_name = sys.argv[4] if len(sys.argv) > 4 else "headlines-suite-server"
XML = """<node><interface name="org.freedesktop.Notifications">
<method name="GetCapabilities"><arg type="as" direction="out"/></method>
<method name="Notify"><arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
<arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/>
<arg type="i" direction="in"/><arg type="u" direction="out"/></method>
<method name="CloseNotification"><arg type="u" direction="in"/></method>
<method name="GetServerInformation"><arg type="s" direction="out"/><arg type="s" direction="out"/>
<arg type="s" direction="out"/><arg type="s" direction="out"/></method>
<signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
<signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
<property name="Inhibited" type="b" access="read"/>
</interface></node>"""
interface = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
last_id = 0
def call(connection, sender, path, iface, method, params, invocation):
    global last_id
    if method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (open(caps_file).read().split(),)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", (server_name, "suite", "0.1", "1.2")))
    elif method == "Notify":
        app, _, icon, summary, body, actions, hints, timeout = params.unpack()
        last_id += 1
        with open(log, "a") as f:
            f.write(json.dumps({"summary": summary, "body": body, "actions": actions,
                                "hints": {k: v for k, v in hints.items() if isinstance(v, (str, int))}}) + "\n")
        invocation.return_value(GLib.Variant("(u)", (last_id,)))
    else:
        invocation.return_value(None)
def get_property(connection, sender, path, iface, name):
    return GLib.Variant("b", inhibited_file is not None and open(inhibited_file).read().strip() == "true")
def acquired(connection, name):
    connection.register_object("/org/freedesktop/Notifications", interface, call, get_property, None)
Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications", Gio.BusNameOwnerFlags.NONE, acquired, None, None)
GLib.MainLoop().run()
