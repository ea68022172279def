// BarFormats holds the version, so that headlines-bar, which cannot link the core, prints it too;
// every importer of the core sees it as its own.
@_exported import enum BarFormats.HeadlinesVersion
