/* codes: every diagnostic code, its default severity and its explanation. */
#include "codes.h"

#include <string.h>

#include "envelope.h"
#include "secret.h"

/* The posture codes: risky settings, declared as assertions in the kind files (their own
 * message and, per assertion, severity); inline-secret on every secret field. */
#define POSTURE_GROUP CODE_GROUP_SECURITY
#define POSTURE_NOTE                                                                               \
    " Which settings are risky is data: assertions with this code in the kind files "              \
    "(schema-format.md), so a team's own kinds declare theirs. Default severity "                  \
    "information; raise the five posture codes at once with \"rules\": {\"" POSTURE_GROUP          \
    "\": \"error\"} in srcls.json, or --select " POSTURE_GROUP "."

/* Indexed by code: SARIF's ruleIndex and the order of docs/rules.md are this order. */
static const struct code_info code_table[CODE_COUNT] = {
    [CODE_JSON_SYNTAX] =
        {
            .name = "json-syntax",
            .severity = DIAG_ERROR,
            .summary = "the document is not valid JSON (RFC 8259)",
            .explanation =
                "The text breaks the JSON grammar: a missing comma or colon, an unquoted key, a "
                "trailing comma, a comment, an unterminated string. srcls recovers and keeps "
                "checking the rest, so fix the first syntax error first: later ones may follow "
                "from it. Fields of an object that a syntax error cut short (unclosed, or a "
                "string that runs to the end of its line) are not reported missing: they may be "
                "in the unreadable part. An empty file (nothing, or only whitespace) named on "
                "the command line or named *.source.json or *.job.json is an error in --check: "
                "a document must be a JSON object, and an empty one is a failed export or a "
                "truncated write. In the editor a new empty document gets a hint, not an "
                "error, while you start typing.",
            .example = "{\"name\": \"lake\" \"config\": {}}",
        },
    [CODE_DUPLICATE_KEY] =
        {
            .name = "duplicate-key",
            .severity = DIAG_ERROR,
            .summary = "a key appears twice in one object",
            .explanation =
                "Only one of the two values takes effect, and which one depends on the reader. "
                "Remove one of them; the note points at the first definition.",
            .example = "{\"config\": {\"port\": \"443\", \"port\": \"9200\"}}",
        },
    [CODE_UNKNOWN_DOCUMENT] =
        {
            .name = "unknown-document",
            .severity = DIAG_WARNING,
            .summary = "a file named explicitly is neither a source nor a job",
            .explanation =
                "A source document has a \"" ENVELOPE_CONFIG "\" object or a \"" ENVELOPE_TYPE
                "\" string at the top level (or is an array of such objects); a job document has "
                "\"" ENVELOPE_JOB_STATE "\". Check that the right file was named.",
            .example = "{\"settings\": {}}",
        },
    [CODE_UNKNOWN_KIND] =
        {
            .name = "unknown-kind",
            .severity = DIAG_WARNING,
            .summary = "the kind of a source is unknown or ambiguous",
            .explanation =
                "An unknown \"type\" is an error when the config keys identify no kind, a warning "
                "when they do (the source is then checked as that kind; map the identifier in "
                "srcls.json \"types\"). A kind identifier in the wrong case "
                "(\"clouda_object_storage\") is a warning that names the kind meant, checked as "
                "it; its quick fix, which --fix applies, writes the identifier as it is spelt. "
                "Without \"type\", config keys that fit several kinds "
                "equally are a warning, and only what those kinds share is checked. Add the right "
                "\"type\" (srcls --list-kinds).",
            .example = "{\"type\": \"MY_LAKE\", \"config\": {\"rootPath\": \"/\"}}",
        },
    [CODE_KIND_INFERRED] =
        {
            .name = "kind-inferred",
            .severity = DIAG_HINT,
            .summary = "no \"type\": the kind was inferred from the config keys",
            .explanation =
                "The source has no \"type\"; srcls picked the kind whose fields fit the config "
                "keys best and checks against it. Add the \"type\" it names to make that explicit.",
            .example = "{\"config\": {\"path\": \"/mnt/exports\"}}",
        },
    [CODE_UNKNOWN_FIELD] =
        {
            .name = "unknown-field",
            .severity = DIAG_WARNING,
            .summary = "a key the kind does not define",
            .explanation =
                "The service ignores or rejects keys it does not know; a misspelled key means the "
                "setting you meant is not set. The message suggests the nearest known name.",
            .example =
                "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acessKey\": \"AKIA...\"}}",
        },
    [CODE_ALTERNATE_SPELLING] =
        {
            .name = "alternate-spelling",
            .severity = DIAG_INFORMATION,
            .summary = "a key spelled as in a sample, not as documented",
            .explanation = "The reference's samples use this spelling, and srcls accepts it as the "
                           "documented field; prefer the documented name.",
            .example = "{\"type\": \"CLOUDB_BLOB_STORAGE\", \"config\": {\"credentialsType\": "
                       "\"ACCESS_KEY\"}}",
        },
    [CODE_TYPE_MISMATCH] =
        {
            .name = "type-mismatch",
            .severity = DIAG_ERROR,
            .summary = "a value of the wrong JSON type",
            .explanation =
                "The field takes the type(s) the message lists (and, where the reference notes "
                "samples that differ, the sample's type too). Quote a string, unquote a number or "
                "boolean.",
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": \"yes\"}}",
        },
    [CODE_MISSING_REQUIRED] =
        {
            .name = "missing-required",
            .severity = DIAG_ERROR,
            .summary = "a required field is absent",
            .explanation =
                "The kind needs this field in every source. Add it; completion in the editor "
                "offers it with its default. A required string left empty (\"\") does not "
                "count as given: it is reported at the value.",
            .example = "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {}}",
        },
    [CODE_CONDITIONAL_REQUIRED] =
        {
            .name = "conditional-required",
            .severity = DIAG_ERROR,
            .summary = "a field required by another field's value is absent",
            .explanation =
                "Another field's value makes this one necessary (an access key when "
                "credentialType is ACCESS_KEY, a region when overwriteRegion is true). Add it, or "
                "change the other field. Left empty (\"\"), it is reported at the value.",
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
                       "\"ACCESS_KEY\"}}",
        },
    [CODE_NOT_APPLICABLE] =
        {
            .name = "not-applicable",
            .severity = DIAG_WARNING,
            .summary = "a field that has no effect under the current settings",
            .explanation =
                "The field only matters under other settings (a password with anonymous access, a "
                "cache size with caching off). Remove it, or change the setting it depends on.",
            .example =
                "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"isCachingEnabled\": false, "
                "\"maxCacheSpacePct\": 50}}",
            .unnecessary = true,
        },
    [CODE_INVALID_ENUM] =
        {
            .name = "invalid-enum",
            .severity = DIAG_ERROR,
            .summary = "a value outside the field's allowed values",
            .explanation = "The message lists the allowed values; values are case-sensitive.",
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": "
                       "\"access_key\"}}",
        },
    [CODE_OUT_OF_RANGE] =
        {
            .name = "out-of-range",
            .severity = DIAG_ERROR,
            .summary = "a number outside its bounds",
            .explanation =
                "Percentages are 1 to 100, ports 1 to 65535, counts, sizes and timeouts at "
                "least 0.",
            .example =
                "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"maxCacheSpacePct\": 150}}",
        },
    [CODE_INVALID_FORMAT] =
        {
            .name = "invalid-format",
            .severity = DIAG_ERROR,
            .summary = "a string that does not have the field's format",
            .explanation =
                "UUIDs are 8-4-4-4-12 hexadecimal digits; timestamps are UTC with milliseconds "
                "and Z (2024-05-01T12:30:00.000Z), on a day that exists (February 29 only in a "
                "leap year, no April 31) at a time from 00:00:00 to 23:59:59 (23:59:60 for a "
                "leap second); ports are digits; namespace names have no periods or spaces.",
            .example = "{\"jobState\": \"RUNNING\", \"startedAt\": \"2024-05-01 12:30\"}",
        },
    [CODE_SECRET_NOT_ENCODED] =
        {
            .name = "secret-not-encoded",
            .severity = DIAG_ERROR,
            .summary = "a secret field holds bare plaintext",
            .explanation =
                "Secret fields take \"" SECRET_PLAIN_PREFIX "<plaintext>\", \"" SECRET_BASE64_PREFIX
                "<base64>\" (required when the plaintext has a colon), the "
                "placeholder " SECRET_PLACEHOLDER " that responses carry, or a secret-store "
                "reference (" SECRET_SCHEMES_TEXT "). srcls never prints the value.",
            .example = "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"hunter2\"}}",
        },
    [CODE_SECRET_NEEDS_BASE64] =
        {
            .name = "secret-needs-base64",
            .severity = DIAG_ERROR,
            .summary = "\"" SECRET_PLAIN_PREFIX "\" plaintext that contains a colon",
            .explanation =
                "Plaintext with a colon must be base64-encoded and written as "
                "\"" SECRET_BASE64_PREFIX "<base64>\" (for example: printf %s 'user:pw' | base64).",
            .example =
                "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"" SECRET_PLAIN_PREFIX
                "a:b\"}}",
        },
    [CODE_INVALID_BASE64] =
        {
            .name = "invalid-base64",
            .severity = DIAG_ERROR,
            .summary = "\"" SECRET_BASE64_PREFIX "\" with a payload that is not base64",
            .explanation =
                "After \"" SECRET_BASE64_PREFIX "\" comes standard base64: A-Z a-z 0-9 + /, "
                "padded with = to a multiple of 4 characters.",
            .example =
                "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"" SECRET_BASE64_PREFIX
                "@@@\"}}",
        },
    [CODE_JOB_INCONSISTENT] =
        {
            .name = "job-inconsistent",
            .severity = DIAG_WARNING,
            .summary = "job fields that contradict jobState",
            .explanation =
                "A FAILED job needs an errorMessage; errorMessage and cancellationReason are "
                "empty outside FAILED and CANCELED; a running job has no endedAt; endedAt is not "
                "before startedAt; a FAILED or CANCELED job returned no rows.",
            .example = "{\"jobState\": \"FAILED\", \"errorMessage\": \"\"}",
        },
    [CODE_PROJECT_CONFIG] =
        {
            .name = "project-config",
            .severity = DIAG_ERROR,
            .summary = "a mistake in the project configuration (srcls.json, or a kind file "
                       "of its \"schemas\")",
            .explanation =
                "srcls.json takes \"rules\" (a diagnostic code and its severity: error, "
                "warning, information, hint or off), \"types\" (an identifier and the kind "
                "type it stands for, as srcls --list-kinds names them), \"include\" and "
                "\"exclude\" (arrays of globs: the files a directory scan also checks, and what "
                "it skips), \"schemas\" (directories of your own kind files) and "
                "\"placeholders\" (the syntaxes of templated values, \"${NAME}\"). An unknown "
                "key, an unknown code or severity, a type of no kind, a glob that is not a "
                "non-empty string, a placeholder pattern without NAME or a directory that cannot "
                "be read is reported where it is "
                "written, and a configuration with a mistake is not applied: fix it first. A "
                "kind file with a mistake (an unknown key, a wrong type, a condition on a field "
                "that is not there, a type identifier another kind has) is reported in that "
                "file, at the value concerned, and left out: the built-in kinds and the other "
                "kind files are still loaded. Where srcls.json names no \"placeholders\", a "
                "document's string value that looks like a template (${NAME}, {{ NAME }}) gets "
                "this code at severity hint, once per value: it is checked as written, and no "
                "fix rewrites it.",
            .example = "{\"rules\": {\"unknown-field\": \"loud\"}}",
        },
    [CODE_INSECURE_TRANSPORT] =
        {
            .name = "insecure-transport",
            .severity = DIAG_INFORMATION,
            .summary = "TLS between the service and the source is off",
            .explanation =
                "The setting (or its default, when the field is absent) leaves the traffic between "
                "the service and the source unencrypted: credentials and data cross the network in "
                "clear text, readable and changeable by anyone on the path. The message names the "
                "field and the safer value (TLS on), and the quick fix sets it." POSTURE_NOTE,
            .example = "{\"type\": \"SQL_SERVER\", \"config\": {\"useSsl\": false}}",
            .group = POSTURE_GROUP,
            .security_severity = "7.5",
        },
    [CODE_UNVERIFIED_CERTIFICATE] =
        {
            .name = "unverified-certificate",
            .severity = DIAG_INFORMATION,
            .summary = "TLS is on but the server's certificate is not verified",
            .explanation =
                "The traffic is encrypted, but the service does not check that the certificate "
                "belongs to the server it meant to reach: whoever can intercept the connection can "
                "present their own certificate and read or change everything. The message names "
                "the "
                "field and the safer value (the certificate and the host name verified), and the "
                "quick fix sets it." POSTURE_NOTE,
            .example = "{\"config\": {\"useSsl\": true, \"enableServerVerification\": false}}",
            .group = POSTURE_GROUP,
            .security_severity = "7.0",
        },
    [CODE_ANONYMOUS_ACCESS] =
        {
            .name = "anonymous-access",
            .severity = DIAG_INFORMATION,
            .summary = "the source is reached without authentication",
            .explanation =
                "The source is set up with no authentication: it accepts the service without "
                "credentials, so it accepts anyone else who can reach it, and what it holds is "
                "open "
                "to them. The message names the field and the authenticated modes to use instead "
                "(no "
                "quick fix: they need credentials only you have)." POSTURE_NOTE,
            .example = "{\"config\": {\"authenticationType\": \"ANONYMOUS\"}}",
            .group = POSTURE_GROUP,
            .security_severity = "8.0",
        },
    [CODE_UNRESTRICTED_SCOPE] =
        {
            .name = "unrestricted-scope",
            .severity = DIAG_INFORMATION,
            .summary = "the source reaches everything its credentials can",
            .explanation =
                "A list that bounds what the source reaches is absent, so every user of the source "
                "reaches everything the credentials can (every bucket, database or namespace), or "
                "the "
                "per-user permission checks are off. Name what the source needs, or turn the "
                "checks "
                "on. Where the API reference does not say what an absent list means, srcls reads "
                "it "
                "as all, at severity hint." POSTURE_NOTE,
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": true}}",
            .group = POSTURE_GROUP,
            .security_severity = "5.0",
        },
    [CODE_INLINE_SECRET] =
        {
            .name = "inline-secret",
            .severity = DIAG_INFORMATION,
            .summary = "a secret is written inline in the file",
            .explanation =
                "The secret is in the file itself (data:,<secret> or "
                "data:;base64,<base64>): base64 is an encoding, not encryption, so anyone "
                "who can read the file or the repository reads the secret. Keep it in a "
                "secret store and write a reference to it, or write the "
                "placeholder " SECRET_PLACEHOLDER " to keep the secret the service already holds. "
                "srcls never prints the value, and offers no quick fix: where the secret "
                "lives is yours to choose." POSTURE_NOTE,
            .example = "{\"config\": {\"password\": \"" SECRET_PLAIN_PREFIX "<secret>\"}}",
            .group = POSTURE_GROUP,
            .security_severity = "9.0",
        },
    [CODE_RISKY_CHANGE] =
        {
            .name = "risky-change",
            .severity = DIAG_WARNING,
            .summary = "the change since the --base version is one a reviewer must see",
            .explanation =
                "Reported by srcls --check --base REF (and in the editor with srcls.reviewBase) "
                "only, on the new text of a document that "
                "differs from its version at REF: a posture finding (insecure-transport, "
                "unverified-certificate, anonymous-access, unrestricted-scope, inline-secret) "
                "that fires now and did not at REF, at the same place (a source of a bulk file "
                "is known by its name, not its position); \"type\" changed (a different kind "
                "of source); \"name\" changed (the service creates a new source and keeps the "
                "old one: not a rename); a field the schema marks \"removalWidens\" removed "
                "(whitelistedBuckets: an update without it includes all buckets; reported once, "
                "not again as a new unrestricted-scope); a source removed from a bulk file; a "
                "document deleted "
                "since REF (reported "
                "on its path, with no place in it); and the gate's own files: in a srcls.json, "
                "a code or group turned off or lowered under \"rules\", an \"ignore\" entry "
                "added or changed, an \"exclude\" glob added, an \"include\" glob removed, "
                "\"types\" or \"schemas\" changed, \"baseline\" removed or pointed "
                "elsewhere (each at the member that changed; a srcls.json new since REF is "
                "compared with the one that governed its directory at REF, or the defaults, one "
                "deleted since with what governs its directory now, and a moved one is both), "
                "and a baseline file that gained entries (how many). Under --base "
                "the " POSTURE_GROUP
                " group is applied at the stricter of the working tree's settings "
                "and REF's (those of the srcls.json that governed the file at REF), and an "
                "\"ignore\" entry new since REF silences none of it: a change cannot turn the "
                "gate off and a risk on at once, nor delete, move or shadow a srcls.json to do "
                "it. Check that the "
                "change is meant; revert it, or make the setting safe. Default severity warning: "
                "it stands out in a pull request without failing a build that fails on errors; "
                "it is in the " POSTURE_GROUP " group, so \"rules\": {\"" POSTURE_GROUP
                "\": \"error\"} raises it with the posture codes. Secrets are never printed.",
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": false}}",
            .group = POSTURE_GROUP,
            .security_severity = "6.0",
        },
    [CODE_UNSET_VARIABLE] =
        {
            .name = "unset-variable",
            .severity = DIAG_ERROR,
            .summary = "a placeholder whose variable none of the --env files sets",
            .explanation =
                "Reported by srcls --check --env FILE only, on a placeholder (srcls.json "
                "\"placeholders\") whose variable is set in none of the dotenv files given: the "
                "renderer would leave the placeholder, or fail. Set the variable in the file of "
                "that environment, or write the value in the template. The rest of the document "
                "is checked as rendered with the values it has; the values are never printed.",
            .example = "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"rootPath\": "
                       "\"/data/${ENV}\"}}",
        },
    [CODE_PLAINTEXT_CREDENTIAL] =
        {
            .name = "plaintext-credential",
            .severity = DIAG_WARNING,
            .summary = "a credential written in plain text outside a secret field",
            .explanation =
                "Two cases. A string in any field not marked secret holds a well-known credential "
                "shape (a cloud access key id, a GitHub, GitLab, Slack, Stripe, npm or PyPI "
                "token, a Google API key, a private key block: the list is data, "
                "schema/credentials.json): reported at severity warning, the default, since "
                "such a shape is a live credential in the file, and anyone who reads the "
                "repository can use it. A field that carries a credential without the API "
                "reference's secret mark (a token, a private key, a secret property value: "
                "\"sensitive\" in the kind files) holds plain text (not empty, not the "
                "placeholder " SECRET_PLACEHOLDER ", not a secret-store reference, not a "
                "placeholder of srcls.json \"placeholders\"): reported at severity information, "
                "as inline-secret is for a secret field, since the service may only take it "
                "inline. Keep the credential in a secret store (or a template placeholder filled "
                "in at deploy time), and revoke one that was committed. The message names the "
                "shape or the field, never the value; baselines hash such values as "
                "\"secret\". In the " POSTURE_GROUP " group: \"rules\": {\"" POSTURE_GROUP
                "\": \"error\"} raises it with the posture codes.",
            .example = "{\"type\": \"SERVICE_CATALOG_EXTERNAL_V1\", \"config\": "
                       "{\"personalAccessToken\": \"ghp_0123456789abcdefghijABCDEFGHIJ012345\"}}",
            .group = POSTURE_GROUP,
            .security_severity = "9.0",
        },
    [CODE_DUPLICATE_NAME] =
        {
            .name = "duplicate-name",
            .severity = DIAG_ERROR,
            .summary = "two sources have the same name",
            .explanation =
                "A source's \"name\" is how users find it in the catalog and refer to it in "
                "SQL, so two sources must not share one. Names compare as written except for "
                "ASCII case (SQL resolves an unquoted name without regard to case, so \"Sales\" "
                "and \"sales\" clash); spaces count. Within one bulk file it is an error on each "
                "later source's name, with the first source of that name as related "
                "information. Across the files of one --check run it is a warning (\"rules\" "
                "can raise it) on the source of the file reported later, with the first "
                "source's place in the other file as related information. Rename one of the "
                "sources, or remove the copy.",
            .example = "[{\"name\": \"lake\", \"type\": \"NETWORK_ATTACHED_STORAGE\", "
                       "\"config\": {\"path\": \"/a\"}}, {\"name\": \"Lake\", \"type\": "
                       "\"NETWORK_ATTACHED_STORAGE\", \"config\": {\"path\": \"/b\"}}]",
        },
};

const struct code_info *code_info(enum diag_code code)
{
    return &code_table[code];
}

const char *code_name(enum diag_code code)
{
    return (unsigned)code < CODE_COUNT ? code_table[code].name : NULL;
}

int code_parse(const char *name)
{
    for (int code = 0; code < CODE_COUNT; code++) {
        if (strcmp(code_table[code].name, name) == 0)
            return code;
    }
    return -1;
}

bool code_group_known(const char *name)
{
    return strcmp(name, POSTURE_GROUP) == 0;
}

bool code_in_group(enum diag_code code, const char *name)
{
    const char *group = code_name(code) != NULL ? code_table[code].group : NULL;
    return group != NULL && strcmp(group, name) == 0;
}
