import CLibXML2
// Placeholder: the libxml2 reader lands here (issue 12).
