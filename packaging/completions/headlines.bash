# bash completion for headlines(1) and headlines-bar. Installed as
# $(PREFIX)/share/bash-completion/completions/headlines, and linked as headlines-bar there, since
# bash-completion loads a command's completion from the file of its name.

# Completes the value of the global option $prev; fails when $prev is none of them.
_headlines_value() {
    case $prev in
        -c|--config) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
        --provider) COMPREPLY=($(compgen -W "feeds hackernews reddit lobsters guardian nyt gnews apitube newsapi json" -- "$cur")) ;;
        --base-url) COMPREPLY=($(compgen -W "https:// http://" -- "$cur")); compopt -o nospace 2>/dev/null ;;
        --widget)
            # The [widget NAME] groups of the default config file.
            local conf=${XDG_CONFIG_HOME:-$HOME/.config}/headlines/headlines.conf
            COMPREPLY=($(compgen -W "$(sed -n 's/^\[widget \([A-Za-z0-9_-]*\)\]$/\1/p' "$conf" 2>/dev/null)" -- "$cur")) ;;
        *) return 1 ;;
    esac
}

_headlines() {
    local cur prev words cword
    _init_completion -s 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local commands="run refresh start status fetch list open menu waybar i3blocks next prev mute unmute muted demo import add export login doctor help"
    local global="-c --config --provider --base-url --widget -h --help -V --version"

    _headlines_value && return
    case $prev in
        --duration) COMPREPLY=($(compgen -W "10s 30s 1m 2m" -- "$cur")); return ;;
        --id) return ;; # a headline's key, from a bar's click: nothing to offer
    esac

    # The command is the first word that is neither an option nor an option's value.
    local i command=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -c|--config|--provider|--base-url|--duration|--widget|--id) ((i++)) ;;
            -*) ;;
            *) command=${words[i]}; break ;;
        esac
    done

    local options="$global"
    case $command in
        "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")); return ;;
        run) options+=" -v --verbose" ;;
        status|list) options+=" --json" ;;
        i3blocks) options+=" --persist --pango --json" ;;
        open) options+=" --comments --id --from-lemonbar" ;;
        export) options+=" --opml" ;;
        demo) options+=" --duration" ;;
        login)
            [[ $cur == -* ]] || { COMPREPLY=($(compgen -W "greader fever miniflux nextcloud" -- "$cur")); return; } ;;
        import)
            if [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null
                return
            fi ;;
        help)
            [[ $cur == -* ]] || { COMPREPLY=($(compgen -W "$commands" -- "$cur")); return; } ;;
        unmute)
            if [[ $cur != -* ]]; then
                local IFS=$'\n'
                # `muted` prints one source a line, or a sentence (with spaces) when none is muted.
                COMPREPLY=($(compgen -W "$(headlines muted 2>/dev/null | grep -v ' ')" -- "$cur"))
                return
            fi ;;
    esac
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
}
complete -F _headlines headlines

# headlines-bar FORMAT: BarFormat's formats, and next/prev for a scroll binding.
_headlines_bar() {
    local cur prev words cword
    _init_completion -s 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local bar_formats="waybar i3blocks i3bar polybar yambar tmux xmobar lemonbar json genmon argos plain conky next prev"
    local bar_options="-c --config --provider --base-url --widget -h --help -V --version"

    _headlines_value && return
    local i format=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -c|--config|--provider|--base-url|--widget) ((i++)) ;;
            -*) ;;
            *) format=${words[i]}; break ;;
        esac
    done
    case $format in
        "") COMPREPLY=($(compgen -W "$bar_formats $bar_options" -- "$cur")); return ;;
        i3blocks) bar_options+=" --persist --pango --json" ;;
        plain) bar_options+=" --html" ;;
        json) bar_options+=" --changed-from" ;;
    esac
    COMPREPLY=($(compgen -W "$bar_options" -- "$cur"))
}
complete -F _headlines_bar headlines-bar
