/// The commands of `headlines`, in the order `headlines --help` lists them, each with the text of
/// `help NAME`, kept together so they read as one manual.
extension CommandTable {
    public static let commands: [Command] = [
        Command("run", "the widget host: reload on schedule within the budget, notify, publish", help: """
            Usage: headlines run [--verbose]

            The widget host. Reloads when its timeline asks (every [refresh] interval), never more than
            [refresh] daily-budget times in 24 hours, backs off after failures, posts notifications for
            new headlines and publishes the bars' lines. One line per event on stderr; --verbose
            also logs every entry change. It owns org.headlines.Headlines on the session bus
            (man headlines: D-BUS INTERFACE). SIGHUP re-reads the config, SIGTERM or SIGINT stop. A
            second `run` exits at once, naming the host that runs.
            """),
        Command("refresh", "ask the host to reload now (or say when the budget allows it)", help: """
            Usage: headlines refresh

            Asks the host to reload now and waits for its result; with no host running, the session
            bus starts one, whose own first reload is the one waited for, so a refresh costs one
            request either way. It fetches every feed, even one whose max-age, ttl or interval says it
            is not due yet: you asked for now, and a person asks far less often than a schedule. It
            honours the daily budget and a server's Retry-After (it says when the reload can happen):
            that is a refusal, not a caching hint.
            """),
        Command("start", "start the host if none runs (D-Bus activation where installed), at once", help: """
            Usage: headlines start

            Makes sure a host runs and returns at once: the session bus starts it by D-Bus activation
            (under the systemd unit when there is one), reading the default config file. What a bar
            runs when it finds no host. With no session bus, run `headlines run` instead.
            """),
        Command("status", synopsis: "status [--json]", program: .fetch, "what the host is doing, the budget used, the last error", help: """
            Usage: headlines status [--json]

            Provider, whether a host runs, the last reload and its result, the next reload, reloads
            used of the daily budget in the last 24 hours, the cache's age and the last error. With the
            feeds provider, the feeds failing now and each feed's state (ok, FAILING, not fetched yet).
            """),
        Command("fetch", program: .fetch, "fetch headlines now, update the cache and print them", help: """
            Usage: headlines fetch [--provider NAME] [--base-url URL]

            Fetches the top headlines now, replaces the cache and prints them; while a host runs,
            --provider or --base-url make it a one-off that leaves the host's cache alone. On failure it prints one
            sentence saying what went wrong and what to do, exits 1, and leaves the cache as it was.
            When some [source] feeds fail and others answer, it prints the list, then one
            `headlines: warning:` line per failing feed on stderr, and exits 0.
            """),
        Command("list", synopsis: "list [--json]", "print the cached headlines, newest first", help: """
            Usage: headlines list [--json]

            Prints the cached headlines, newest first, with source and age. A "! Stale" line says when
            the last refresh failed after the list was fetched. --json prints an array of
            {id, title, url, source, published_at, image, comments_url} objects (RFC 3339 dates; image
            and comments_url, the Hacker News, Reddit or Lobsters discussion, null if none).
            """),
        Command("open", synopsis: "open [--comments] [N]", "open the N-th headline of `list`, or the one a bar shows now", help: """
            Usage: headlines open [--comments] [N]
                   headlines open --id KEY
                   headlines open --from-lemonbar

            Opens the N-th headline of `headlines list` (counting from 1) in the default web browser,
            or with no N the headline a bar shows right now. Only http and https links are opened.
            --comments opens its discussion page instead (Hacker News, Reddit, Lobsters), such as
            waybar's "on-click-middle": "headlines open --comments".
            --id opens the headline a bar's click names (every headlines-bar FORMAT carries its key);
            --from-lemonbar reads lemonbar's `open KEY` click lines on stdin and opens each.
            """),
        Command("next", synopsis: "next, prev", aliases: ["prev"], "turn every bar copy to the next or previous headline", help: """
            Usage: headlines next | headlines prev

            Turns every bar copy to the next or previous headline at once.
            """),
        Command("waybar", "a waybar custom module (continuous JSON lines)", help: """
            Usage: headlines waybar

            A waybar custom module ("exec": "exec headlines-bar waybar", "return-type": "json"): one
            JSON line per change, every copy showing the one host's timeline. `headlines waybar` runs
            the same program. Exits 0 when waybar goes away.
            """),
        Command("i3blocks", synopsis: "i3blocks [--persist] [--pango] [--json]", "an i3blocks block", help: """
            Usage: headlines i3blocks [--persist] [--pango] [--json]

            An i3blocks block. Without --persist (interval=N): acts on BLOCK_BUTTON (1 open, 2 refresh,
            3 menu, 4/5 previous/next), then prints full_text, short_text and color. With --persist
            (interval=persist): one line per change; --json for format=json (i3blocks 1.5 clicks on
            stdin); --pango escapes for markup=pango.
            """),
        Command("menu", "pick a headline in a launcher (\(KnownLaunchers.names)) and open it", help: """
            Usage: headlines menu

            Lists the headlines on display in a dmenu-style launcher ([bar] launcher, or the first of
            \(KnownLaunchers.names) found) and opens the one picked.
            """),
        Command("mute", synopsis: "mute SOURCE, unmute SOURCE, muted", aliases: ["unmute", "muted"],
                "sources hidden from notifications and bars", help: """
            Usage: headlines mute SOURCE | unmute SOURCE | muted

            Hides a source (as `list` shows it, e.g. bbc.co.uk) from notifications and bars, shows it
            again, or lists the muted sources.
            """),
        Command("demo", program: .fetch, "the host on bundled sample data, no key and no network needed", help: """
            Usage: headlines demo [--duration 30s]

            Runs the widget host on the bundled sample data, through the same decoding path as a real
            fetch: a new headline arrives every 5 s and is notified when a notification server runs;
            the entry on display is printed as it rotates. Needs no key and no network. Its files are
            kept apart from the real ones. Runs until Ctrl-C, or for --duration.
            """),
        Command("import", synopsis: "import FILE[#TAG]", program: .fetch,
                "print the config for an OPML export or a newsboat urls file", help: """
            Usage: headlines import FILE[#TAG[,TAG...]]

            Prints the config that reads the feeds of FILE, an OPML export (Feedly, Inoreader,
            NetNewsWire ...) or a newsboat urls file: `#` lines naming each feed's title and tags, then
            [source] provider = feeds and feeds = URL;URL. With #TAG, only the feeds with one of the
            tags (OPML folders and category, newsboat tags; any case). query:, exec: and filter: lines
            and non-http URLs are skipped with a warning on stderr; nothing is run. A file that cannot
            be read or has no such feeds: one sentence, exit 2. To keep reading the file itself, so
            that editing it changes the widget, set [source] feeds-from = FILE#TAG instead.
            """),
        Command("add", synopsis: "add URL", program: .fetch,
                "add a feed, or the feed a site links to, to [source] feeds", help: """
            Usage: headlines add [--widget NAME] URL

            Adds the feed at URL to [source] feeds (or [widget NAME] feeds) in the config file. URL may
            be a site: its page's <link rel="alternate"> feeds are tried, then /feed, /rss, /atom.xml,
            /feed.xml, /rss.xml and /index.xml, each within [source] timeout and 4 MiB. Only the feeds
            line changes; comments and layout stay. A config file that is a link is not replaced.
            """),
        Command("export", synopsis: "export --opml", program: .fetch, "print the feeds as OPML for another reader", help: """
            Usage: headlines export --opml

            Prints the feeds read ([source] feeds and the feeds-from file's) as an OPML 2.0
            subscription list, which other readers and `headlines import` read.
            """),
        Command("login", synopsis: "login PROVIDER", program: .fetch,
                "store a sync service's password in the Secret Service", help: """
            Usage: headlines login [--widget NAME] PROVIDER

            Stores the password of the sync service account the config reads (provider = PROVIDER,
            base-url and username, in [source] or a [widget NAME]; --widget picks one when several
            read PROVIDER) in the Secret Service (GNOME Keyring, KeePassXC, KWallet), where headlines
            looks for it before password-command and password-file. It asks for the password on the
            terminal without showing it, or reads the first line of stdin when that is not a terminal
            (`pass show freshrss | headlines login greader`), and never prints it. With no Secret
            Service on the session bus it stores nothing and says to set password-command or
            password-file instead.
            """),
        Command("doctor", "check that a click opens the article here, and say what to change", help: """
            Usage: headlines doctor

            One screen on what a click goes through here: the notification server (its name and what it
            supports), the default browser, the launcher of `headlines menu`, the bars found and
            whether their config runs headlines, and the config file (loads, or why not; where the API
            key or a sync service's password comes from, never either, and whether the sync service
            takes it). Then what to change: on dunst
            with its default left click, the line to add to dunstrc, `mouse_left_click = do_action,
            close_current`. Exits 0 when nothing needs changing, 1 otherwise.
            """),
        Command("help", synopsis: "help COMMAND", "show the help of a command", help: nil),
        Command("sync-check", program: .fetch, internal: true, "doctor's check that a sync service answers and takes the credential", help: nil),
    ]
}
