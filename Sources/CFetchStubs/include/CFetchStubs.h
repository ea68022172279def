// Nothing to call: this target only defines symbols for headlines-fetch's static link
// (unbuilt.c says which and why).
