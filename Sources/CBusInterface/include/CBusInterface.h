#ifndef HEADLINES_BUS_INTERFACE_H
#define HEADLINES_BUS_INTERFACE_H
/// packaging/dbus/org.headlines.Headlines1.xml, embedded at build time, NUL-terminated.
const char *headlines_bus_introspection_xml(void);
#endif
