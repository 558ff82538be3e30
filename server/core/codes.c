/* codes: every diagnostic code, its default severity and its explanation. */
#include "codes.h"

#include <string.h>

#include "rules.h"

const struct code_info code_table[] = {
    {"json-syntax", DIAG_ERROR, "the document is not valid JSON (RFC 8259)",
     "The text breaks the JSON grammar: a missing comma or colon, an unquoted key, a trailing "
     "comma, a comment, an unterminated string. srcls recovers and keeps checking the rest, so "
     "fix the first syntax error first: later ones may follow from it.",
     "{\"name\": \"lake\" \"config\": {}}"},
    {"duplicate-key", DIAG_ERROR, "a key appears twice in one object",
     "Only one of the two values takes effect, and which one depends on the reader. Remove one "
     "of them; the note points at the first definition.",
     "{\"config\": {\"port\": \"443\", \"port\": \"9200\"}}"},
    {"unknown-document", DIAG_WARNING, "a file named explicitly is neither a source nor a job",
     "A source document has a \"config\" object or a \"type\" string at the top level (or is an "
     "array of such objects); a job document has \"jobState\". Check that the right file was "
     "named.",
     "{\"settings\": {}}"},
    {"unknown-kind", DIAG_WARNING, "the kind of a source is unknown or ambiguous",
     "An unknown \"type\" is an error when the config keys identify no kind, a warning when they "
     "do (the source is then checked as that kind; map the identifier in srcls.json \"types\"). "
     "Without \"type\", config keys that fit several kinds equally are a warning, and only what "
     "those kinds share is checked. Add the right \"type\" (srcls --list-kinds).",
     "{\"type\": \"MY_LAKE\", \"config\": {\"rootPath\": \"/\"}}"},
    {"kind-inferred", DIAG_HINT, "no \"type\": the kind was inferred from the config keys",
     "The source has no \"type\"; srcls picked the kind whose fields fit the config keys best "
     "and checks against it. Add the \"type\" it names to make that explicit.",
     "{\"config\": {\"path\": \"/mnt/exports\"}}"},
    {"unknown-field", DIAG_WARNING, "a key the kind does not define",
     "The service ignores or rejects keys it does not know; a misspelled key means the setting "
     "you meant is not set. The message suggests the nearest known name.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"acessKey\": \"AKIA...\"}}"},
    {"alternate-spelling", DIAG_INFORMATION, "a key spelled as in a sample, not as documented",
     "The reference's samples use this spelling, and srcls accepts it as the documented field; "
     "prefer the documented name.",
     "{\"type\": \"CLOUDB_BLOB_STORAGE\", \"config\": {\"credentialsType\": \"ACCESS_KEY\"}}"},
    {"type-mismatch", DIAG_ERROR, "a value of the wrong JSON type",
     "The field takes the type(s) the message lists (and, where the reference notes samples "
     "that differ, the sample's type too). Quote a string, unquote a number or boolean.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"secure\": \"yes\"}}"},
    {"missing-required", DIAG_ERROR, "a required field is absent",
     "The kind needs this field in every source. Add it; completion in the editor offers it "
     "with its default.",
     "{\"type\": \"NETWORK_ATTACHED_STORAGE\", \"config\": {}}"},
    {"conditional-required", DIAG_ERROR, "a field required by another field's value is absent",
     "Another field's value makes this one necessary (an access key when credentialType is "
     "ACCESS_KEY, a region when overwriteRegion is true). Add it, or change the other field.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"ACCESS_KEY\"}}"},
    {"not-applicable", DIAG_WARNING, "a field that has no effect under the current settings",
     "The field only matters under other settings (a password with anonymous access, a cache "
     "size with caching off). Remove it, or change the setting it depends on.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"isCachingEnabled\": false, "
     "\"maxCacheSpacePct\": 50}}"},
    {"invalid-enum", DIAG_ERROR, "a value outside the field's allowed values",
     "The message lists the allowed values; values are case-sensitive.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"credentialType\": \"access_key\"}}"},
    {"out-of-range", DIAG_ERROR, "a number outside its bounds",
     "Percentages are 1 to 100, ports 1 to 65535, counts, sizes and timeouts at least 0.",
     "{\"type\": \"CLOUDA_OBJECT_STORAGE\", \"config\": {\"maxCacheSpacePct\": 150}}"},
    {"invalid-format", DIAG_ERROR, "a string that does not have the field's format",
     "UUIDs are 8-4-4-4-12 hexadecimal digits; timestamps are UTC with milliseconds and Z "
     "(2024-05-01T12:30:00.000Z); ports are digits; namespace names have no periods or spaces.",
     "{\"jobState\": \"RUNNING\", \"startedAt\": \"2024-05-01 12:30\"}"},
    {"secret-not-encoded", DIAG_ERROR, "a secret field holds bare plaintext",
     "Secret fields take \"data:,<plaintext>\", \"data:;base64,<base64>\" (required when the "
     "plaintext has a colon), the placeholder $SERVICE_EXISTING_VALUE$ that responses carry, or "
     "a secret-store reference (arn:, vault:, https://). srcls never prints the value.",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"hunter2\"}}"},
    {"secret-needs-base64", DIAG_ERROR, "\"data:,\" plaintext that contains a colon",
     "Plaintext with a colon must be base64-encoded and written as \"data:;base64,<base64>\" "
     "(for example: printf %s 'user:pw' | base64).",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:,a:b\"}}"},
    {"invalid-base64", DIAG_ERROR, "\"data:;base64,\" with a payload that is not base64",
     "After \"data:;base64,\" comes standard base64: A-Z a-z 0-9 + /, padded with = to a "
     "multiple of 4 characters.",
     "{\"type\": \"PEER_CLUSTER\", \"config\": {\"password\": \"data:;base64,@@@\"}}"},
    {"job-inconsistent", DIAG_WARNING, "job fields that contradict jobState",
     "A FAILED job needs an errorMessage; errorMessage and cancellationReason are empty outside "
     "FAILED and CANCELED; a running job has no endedAt; endedAt is not before startedAt; a "
     "FAILED or CANCELED job returned no rows.",
     "{\"jobState\": \"FAILED\", \"errorMessage\": \"\"}"},
};

const unsigned code_count = sizeof code_table / sizeof code_table[0];

const struct code_info *code_find(const char *code)
{
    for (unsigned i = 0; i < code_count; i++) {
        if (strcmp(code_table[i].code, code) == 0)
            return &code_table[i];
    }
    return NULL;
}

enum diag_severity rules_default_severity(const char *code)
{
    const struct code_info *info = code_find(code);
    return info ? info->severity : DIAG_ERROR;
}
