# bash completion for srcls (installed as share/bash-completion/completions/srcls)
_srcls() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --format) COMPREPLY=($(compgen -W "text json sarif github gitlab" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --fail-on) COMPREPLY=($(compgen -W "error warning information hint" -- "$cur")); return ;;
        --explain|--select|--ignore)
            # BEGIN srcls --generate-docs completion-codes (from the code table: tools/generated_regions.py)
            local codes="json-syntax duplicate-key unknown-document unknown-kind kind-inferred unknown-field alternate-spelling type-mismatch missing-required conditional-required not-applicable invalid-enum out-of-range invalid-format secret-not-encoded secret-needs-base64 invalid-base64 job-inconsistent project-config insecure-transport unverified-certificate anonymous-access unrestricted-scope inline-secret risky-change unset-variable duplicate-name"
            [ "$prev" = --explain ] || codes="$codes security" # groups of codes
            # END srcls --generate-docs completion-codes
            COMPREPLY=($(compgen -W "$codes" -- "${cur##*,}"))
            return ;;
        --jobs) return ;;
        --base) COMPREPLY=($(compgen -W "HEAD origin/main $(git for-each-ref --format='%(refname:short)' 2>/dev/null)" -- "$cur")); return ;;
        --config|--output-file|--stdin-filename|--exclude|--env|--baseline|--write-baseline) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --export-json-schema) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--stdio --check --list-kinds --explain --export-json-schema --version --help --format --color --fix --jobs --quiet --statistics --fail-on --diff --exit-zero --output-file --stdin-filename --select --ignore --config --show-source --no-show-source --exclude --no-respect-gitignore --base --env --baseline --write-baseline" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _srcls srcls
