// The host's D-Bus introspection XML, embedded from the one file under packaging/ that the man
// page, the installed interface file and the host all share: no copy to drift.
#include "CBusInterface.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
static const char xml[] = {
#embed "../../packaging/dbus/org.headlines.Headlines1.xml"
    , 0
};

const char *headlines_bus_introspection_xml(void) { return xml; }
