import HeadlinesCore

/// `--help` texts, one per subcommand, kept together so they read as one manual.
enum Help {
    static let general = """
    headlines \(HeadlinesVersion.string): top news headlines for Linux desktops.

    Usage: headlines [--config FILE] [--provider NAME] [--base-url URL] COMMAND [ARGS]

    Commands:
      fetch          fetch headlines now, update the cache and print them
      list [--json]  print the cached headlines, newest first
      open N         open the N-th headline of `list` in the default browser
      demo           run on the bundled sample data, no key and no network needed
      help COMMAND   show the help of a command

    Options:
      -c, --config FILE   config file (default $XDG_CONFIG_HOME/headlines/headlines.conf)
      --provider NAME     apitube or newsapi, overriding [source] provider
      --base-url URL      API base URL, overriding [source] base-url
      -h, --help          show help;  -V, --version  show the version

    Keys come from APITUBE_API_KEY / NEWSAPI_API_KEY or [source] api-key-file.
    """

    static let commands: [String: String] = [
        "fetch": """
        Usage: headlines fetch [--provider NAME] [--base-url URL]

        Fetches the top headlines now, replaces the cache and prints them. On failure it prints one
        sentence saying what went wrong and what to do, exits 1, and leaves the cache as it was.
        """,
        "list": """
        Usage: headlines list [--json]

        Prints the cached headlines, newest first, with source and age. A "! Stale" line says when
        the last refresh failed after the list was fetched. --json prints an array of
        {id, title, url, source, published_at, image} objects (RFC 3339 dates, image null if none).
        """,
        "open": """
        Usage: headlines open N

        Opens the N-th headline of `headlines list` (counting from 1) in the default web browser.
        Only http and https links are opened.
        """,
        "demo": """
        Usage: headlines demo

        Decodes the bundled sample API responses through the same path as a real fetch and prints
        them. Needs no key and no network. Its cache is kept apart from the real one.
        """,
    ]
}
