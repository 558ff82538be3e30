# bash completion for srcls (installed as share/bash-completion/completions/srcls)
_srcls() {
    local cur prev
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    # BEGIN srcls --generate-docs completion (from the option table: tools/generated_regions.py)
    case "$prev" in
        --explain) COMPREPLY=($(compgen -W "json-syntax duplicate-key unknown-document unknown-kind kind-inferred unknown-field alternate-spelling type-mismatch missing-required conditional-required not-applicable invalid-enum out-of-range invalid-format secret-not-encoded secret-needs-base64 invalid-base64 job-inconsistent project-config insecure-transport unverified-certificate anonymous-access unrestricted-scope inline-secret risky-change unset-variable plaintext-credential duplicate-name security" -- "$cur")); return ;;
        --export-json-schema) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --generate-docs) COMPREPLY=($(compgen -W "rules kinds man-codes man-options completion cli-synopsis formats" -- "$cur")); return ;;
        --format)
            local formats="text json sarif github gitlab"
            [[ " ${COMP_WORDS[*]} " == *" --list-kinds "* ]] && formats="text json"
            COMPREPLY=($(compgen -W "$formats" -- "$cur"))
            return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --jobs|--shard) return ;;
        --fail-on) COMPREPLY=($(compgen -W "error warning information hint" -- "$cur")); return ;;
        --output-file|--stdin-filename|--exclude|--baseline|--write-baseline|--env|--config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --base) COMPREPLY=($(compgen -W "HEAD origin/main $(git for-each-ref --format='%(refname:short)' 2>/dev/null)" -- "$cur")); return ;;
        --select|--ignore)
            local codes="json-syntax duplicate-key unknown-document unknown-kind kind-inferred unknown-field alternate-spelling type-mismatch missing-required conditional-required not-applicable invalid-enum out-of-range invalid-format secret-not-encoded secret-needs-base64 invalid-base64 job-inconsistent project-config insecure-transport unverified-certificate anonymous-access unrestricted-scope inline-secret risky-change unset-variable plaintext-credential duplicate-name security"
            local before=""
            [[ "$cur" == *,* ]] && before="${cur%,*},"
            COMPREPLY=($(compgen -P "$before" -W "$codes" -- "${cur##*,}"))
            return ;;
    esac
    local options="--stdio --check --list-kinds --explain --export-json-schema --generate-docs --version --help --format --color --fix --diff --unsafe-fixes --jobs --shard --quiet --statistics --fail-on --exit-zero --output-file --stdin-filename --show-source --no-show-source --exclude --no-respect-gitignore --base --baseline --write-baseline --no-baseline --select --ignore --env --config"
    # END srcls --generate-docs completion
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _srcls srcls
