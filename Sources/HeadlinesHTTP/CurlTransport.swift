import CCurl
import HeadlinesCore
// Placeholder: the libcurl transport lands here (issue 12).
