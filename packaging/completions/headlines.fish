# fish completion for headlines(1) and headlines-bar. Installed as
# $(PREFIX)/share/fish/vendor_completions.d/headlines.fish, and linked as headlines-bar.fish there,
# since fish loads a command's completion from the file of its name.

set -l commands run refresh start status fetch list open menu waybar i3blocks next prev mute unmute muted demo import add export login doctor help

# Global options, anywhere, for both programs.
for program in headlines headlines-bar
    complete -c $program -f
    complete -c $program -s c -l config -r -F -d 'Config file'
    complete -c $program -l provider -x -a 'feeds hackernews reddit lobsters guardian nyt gnews apitube newsapi json' -d 'News source for this run'
    complete -c $program -l base-url -x -d 'API base URL for this run'
    complete -c $program -l widget -x -a '(sed -n "s/^\[widget \([A-Za-z0-9_-]*\)\]\$/\1/p" (set -q XDG_CONFIG_HOME; and echo $XDG_CONFIG_HOME; or echo ~/.config)/headlines/headlines.conf 2>/dev/null)' -d 'The [widget NAME] a command is about'
    complete -c $program -s h -l help -d 'Show help'
    complete -c $program -s V -l version -d 'Show the version'
end

# Commands.
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a run -d 'The widget host: reload, notify, publish'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a refresh -d 'Ask the host to reload now'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a start -d 'Start the host if none runs, at once'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a status -d 'What the host is doing, budget, last error'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a fetch -d 'Fetch now, update the cache and print'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a list -d 'Print the cached headlines'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a open -d 'Open the N-th headline (or the one on display)'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a menu -d 'Pick a headline in a launcher'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a waybar -d 'The waybar custom module'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a i3blocks -d 'The i3blocks block'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a next -d 'Turn every bar to the next headline'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a prev -d 'Turn every bar to the previous headline'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a mute -d 'Hide a source'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a unmute -d 'Show a muted source again'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a muted -d 'List the muted sources'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a demo -d 'The host on bundled sample data'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a import -d 'Print the config for an OPML or newsboat urls file'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a add -d 'Add a feed, or the one a site links to, to the config'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a export -d 'Print the feeds as OPML'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a login -d "Store a sync service's password in the Secret Service"
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'Check the notification server, browser, launcher, bars and config'
complete -c headlines -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show the help of a command'

# Per-command options and arguments.
complete -c headlines -n '__fish_seen_subcommand_from run' -s v -l verbose -d 'Also log every entry change'
complete -c headlines -n '__fish_seen_subcommand_from status list' -l json -d 'Print JSON'
complete -c headlines -n '__fish_seen_subcommand_from i3blocks' -l persist -d 'Continuous form for interval=persist'
complete -c headlines -n '__fish_seen_subcommand_from i3blocks' -l pango -d 'Escape for markup=pango'
complete -c headlines -n '__fish_seen_subcommand_from i3blocks' -l json -d 'i3blocks 1.5 JSON lines (persist)'
complete -c headlines -n '__fish_seen_subcommand_from demo' -l duration -x -a '10s 30s 1m 2m' -d 'Stop after this long'
complete -c headlines -n '__fish_seen_subcommand_from unmute' -a '(headlines muted 2>/dev/null | string match -v "* *")' -d 'Muted source'
complete -c headlines -n '__fish_seen_subcommand_from import' -F -d 'OPML or newsboat urls file'
complete -c headlines -n '__fish_seen_subcommand_from open' -l comments -d 'Open the discussion page'
complete -c headlines -n '__fish_seen_subcommand_from open' -l id -x -d 'Open the headline a bar click names'
complete -c headlines -n '__fish_seen_subcommand_from open' -l from-lemonbar -d "Open lemonbar's click lines on stdin"
complete -c headlines -n '__fish_seen_subcommand_from export' -l opml -d 'OPML 2.0'
complete -c headlines -n '__fish_seen_subcommand_from login' -a 'greader fever miniflux nextcloud' -d 'Sync service provider'
complete -c headlines -n '__fish_seen_subcommand_from help' -a "$commands"

# headlines-bar FORMAT: BarFormat's formats, and next/prev for a scroll binding.
set -l bar_formats waybar i3blocks i3bar polybar yambar tmux xmobar lemonbar json genmon argos plain conky next prev
complete -c headlines-bar -n "not __fish_seen_subcommand_from $bar_formats" -a "$bar_formats"
complete -c headlines-bar -n '__fish_seen_subcommand_from i3blocks' -l persist -d 'Continuous form for interval=persist'
complete -c headlines-bar -n '__fish_seen_subcommand_from i3blocks' -l pango -d 'Escape for markup=pango'
complete -c headlines-bar -n '__fish_seen_subcommand_from i3blocks' -l json -d 'JSON lines for format=json'
complete -c headlines-bar -n '__fish_seen_subcommand_from plain' -l html -d 'Rich text'
complete -c headlines-bar -n '__fish_seen_subcommand_from json' -l changed-from -r -d 'One document, once it differs from HASH'
