/* settings: severity overrides and extra type identifiers. */
#include "settings.h"

#include <stdio.h>
#include <string.h>

#include "codes.h"

void settings_init(struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    arena_init(&settings->arena);
}

void settings_free(struct settings *settings)
{
    arena_free(&settings->arena);
    memset(settings, 0, sizeof *settings);
}

static void note(char *problems, size_t size, const char *line)
{
    if (problems == NULL || size == 0)
        return;
    size_t used = strlen(problems);
    snprintf(problems + used, size - used, "%s%s", used ? "\n" : "", line);
}

void settings_read(struct settings *settings, struct json_doc *doc, uint32_t node, char *problems,
                   size_t problems_size)
{
    settings_free(settings);
    settings_init(settings);
    const struct json_node *n = json_node_at(doc, node);
    if (n == NULL || n->kind != JSON_OBJECT)
        return;
    uint32_t rules = json_object_get(doc, node, "rules", 5);
    if (rules == JSON_NONE)
        rules = json_object_get(doc, node, "severity", 8);
    uint32_t types = json_object_get(doc, node, "types", 5);
    char line[256];
    if (rules != JSON_NONE && doc->nodes[rules].kind == JSON_OBJECT) {
        uint32_t count = json_child_count(doc, rules);
        settings->severities =
            arena_alloc(&settings->arena, (count + 1) * sizeof *settings->severities);
        for (uint32_t m = doc->nodes[rules].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str code = json_node_key(doc, m);
            struct json_str value = json_node_string(doc, m);
            char code_text[64], value_text[32];
            snprintf(code_text, sizeof code_text, "%.*s", (int)code.len, code.ptr);
            snprintf(value_text, sizeof value_text, "%.*s", (int)value.len, value.ptr);
            int severity = diag_severity_parse(value_text);
            const struct code_info *info = code_find(code_text);
            if (info == NULL || severity < 0) {
                snprintf(line, sizeof line,
                         info == NULL ? "unknown code \"%s\" in rules"
                                      : "\"%s\": severity must be error, warning, information, "
                                        "hint or off",
                         code_text);
                note(problems, problems_size, line);
                continue;
            }
            settings->severities[settings->severity_count++] =
                (struct settings_severity){info->code, (enum diag_severity)severity};
        }
    }
    if (types != JSON_NONE && doc->nodes[types].kind == JSON_OBJECT) {
        uint32_t count = json_child_count(doc, types);
        settings->types = arena_alloc(&settings->arena, (count + 1) * sizeof *settings->types);
        for (uint32_t m = doc->nodes[types].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
            struct json_str id = json_node_key(doc, m);
            struct json_str kind = json_node_string(doc, m);
            if (doc->nodes[m].kind != JSON_STRING) {
                note(problems, problems_size, "a \"types\" entry maps an identifier to a string");
                continue;
            }
            settings->types[settings->type_count++] =
                (struct settings_type){arena_strndup(&settings->arena, id.ptr, id.len),
                                       arena_strndup(&settings->arena, kind.ptr, kind.len)};
        }
    }
}

enum diag_severity settings_severity(const struct settings *settings, const char *code,
                                     enum diag_severity fallback)
{
    for (uint32_t i = 0; settings != NULL && i < settings->severity_count; i++) {
        if (strcmp(settings->severities[i].code, code) == 0)
            return settings->severities[i].severity;
    }
    return fallback;
}

const char *settings_type(const struct settings *settings, const char *id, size_t len)
{
    for (uint32_t i = 0; settings != NULL && i < settings->type_count; i++) {
        if (strlen(settings->types[i].id) == len && memcmp(settings->types[i].id, id, len) == 0)
            return settings->types[i].kind_type;
    }
    return NULL;
}
