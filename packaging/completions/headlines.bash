# bash completion for headlines(1). Installed as
# $(PREFIX)/share/bash-completion/completions/headlines.

_headlines() {
    local cur prev words cword
    _init_completion -s 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local commands="run refresh status fetch list open menu waybar i3blocks next prev mute unmute muted demo import add export doctor help"
    local global="-c --config --provider --base-url --widget -h --help -V --version"

    case $prev in
        -c|--config) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return ;;
        --provider) COMPREPLY=($(compgen -W "feeds hackernews reddit lobsters guardian nyt gnews apitube newsapi json" -- "$cur")); return ;;
        --base-url) COMPREPLY=($(compgen -W "https:// http://" -- "$cur")); compopt -o nospace 2>/dev/null; return ;;
        --duration) COMPREPLY=($(compgen -W "10s 30s 1m 2m" -- "$cur")); return ;;
        --widget)
            # The [widget NAME] groups of the default config file.
            local conf=${XDG_CONFIG_HOME:-$HOME/.config}/headlines/headlines.conf
            COMPREPLY=($(compgen -W "$(sed -n 's/^\[widget \([A-Za-z0-9_-]*\)\]$/\1/p' "$conf" 2>/dev/null)" -- "$cur")); return ;;
    esac

    # The command is the first word that is neither an option nor an option's value.
    local i command=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -c|--config|--provider|--base-url|--duration|--widget) ((i++)) ;;
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
        demo) options+=" --duration" ;;
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
