# bash completion for srcls (installed as share/bash-completion/completions/srcls)
_srcls() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --format)
            # BEGIN srcls --generate-docs completion-formats (from the format table: tools/generated_regions.py)
            local formats="text json sarif github gitlab"
            [[ " ${COMP_WORDS[*]} " == *" --list-kinds "* ]] && formats="text json"
            # END srcls --generate-docs completion-formats
            COMPREPLY=($(compgen -W "$formats" -- "$cur"))
            return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --fail-on) COMPREPLY=($(compgen -W "error warning information hint" -- "$cur")); return ;;
        --explain|--select|--ignore)
            # BEGIN srcls --generate-docs completion-codes (from the code table: tools/generated_regions.py)
            local codes="json-syntax duplicate-key unknown-document unknown-kind kind-inferred unknown-field alternate-spelling type-mismatch missing-required conditional-required not-applicable invalid-enum out-of-range invalid-format secret-not-encoded secret-needs-base64 invalid-base64 job-inconsistent project-config insecure-transport unverified-certificate anonymous-access unrestricted-scope inline-secret risky-change unset-variable plaintext-credential duplicate-name"
            [ "$prev" = --explain ] || codes="$codes security" # groups of codes
            # END srcls --generate-docs completion-codes
            # after a comma (--select a,b): complete the last code, keep what is before it
            local before=""
            [[ "$cur" == *,* ]] && before="${cur%,*},"
            COMPREPLY=($(compgen -P "$before" -W "$codes" -- "${cur##*,}"))
            return ;;
        --jobs) return ;;
        --base) COMPREPLY=($(compgen -W "HEAD origin/main $(git for-each-ref --format='%(refname:short)' 2>/dev/null)" -- "$cur")); return ;;
        --config|--output-file|--stdin-filename|--exclude|--env|--baseline|--write-baseline) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --export-json-schema) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--stdio --check --list-kinds --explain --export-json-schema --version --help --format --color --fix --jobs --quiet --statistics --fail-on --diff --unsafe-fixes --exit-zero --output-file --stdin-filename --select --ignore --config --show-source --no-show-source --exclude --no-respect-gitignore --base --env --baseline --write-baseline --no-baseline" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _srcls srcls
