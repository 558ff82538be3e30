/* test_reference_walk: walks the API reference (shared/seed/api-reference.md, found through
 * SRCLS_REFERENCE) and proves that the embedded schema encodes it.
 *
 * The reference is read, not copied: for every "**N. Title**" kind section the walk extracts
 * each field spec (a backticked camelCase name followed by its attributes: listed type, R/O
 * mark, "default X", "enum A, B", "min"/"max", the secret mark, the (UUID) and <EMAIL> formats,
 * the shape of array elements written as `{name: type (O), ...}`), the shared groups named in the
 * section (parsed from the "Shared groups" list), "Same fields as kind N (without `a`, `b`)"
 * and "All fields of kind N" inheritance, "as in kind N" / "as in GROUP" / "as GROUP"
 * references, "etc. as in GROUP", a group's "(documented defaults ...)", and a few irregular
 * sentences ("The description states default port 5432 ...", "All storage-specific fields
 * are O ..."). The resolved spec of each kind is then compared with the schema both ways: every
 * field the reference gives is in the schema with the same type, default, enum values, bounds,
 * secret mark and format, and every field of the schema is one the reference gives. The Job
 * tables (job, `acceleration`, entries of `reflectionRelationships`), the top-level keys of a
 * source and the Limits section are walked the same way.
 *
 * Every backticked camelCase identifier of a kind section must be accounted for: a field of
 * the kind (after inheritance and groups), a name the section excludes ("without ..."; then it
 * must NOT be in the schema), or a spelling the section says a sample uses (an alias).
 *
 * It also checks R (with no condition) against always-required, O against not required,
 * "required for/when ..." against a conditional requirement, the "(without ...)" names against
 * their absence, aliases, sample-only fields and the schema's titles. SRCLS_WALK_DUMP=1 prints
 * what the walk read for each kind.
 *
 * Where the schema follows a documented reading instead of the letter of the reference, the
 * difference is listed in `exceptions` below with the reference sentence; an exception that no
 * longer fires fails the test too, so the list cannot go stale. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schema/schema.h"

#define NAME_LEN 96
#define VALUE_LEN 96
#define MAX_ENUMS 24
#define MAX_FIELDS 80
#define MAX_ITEMS 128
#define MAX_TOKENS 512
#define MAX_GROUPS 16
#define MAX_KINDS 99 /* the highest kind number the walk holds, not how many there are */

/* ---- what the reference says about one field ---- */

struct ref_field {
    char name[NAME_LEN];
    char type[16];       /* "string", "boolean", "integer", "array", "object" or "" */
    char items_type[16]; /* arrays: the element type */
    char format[16];     /* "uuid", "email", "timestamp", "namespace" or "" */
    char items_format[16];
    char mark;          /* 'R', 'O' or 0 (unmarked) */
    bool conditional;   /* "required for ...", "required when ...", "only for ..." */
    bool required_when; /* "required for ...", "required when ...", "required only ..." */
    bool secret, sample_only;
    bool has_default;
    char default_text[VALUE_LEN];
    bool has_enum;
    int enum_count;
    char enums[MAX_ENUMS][48];
    bool has_min, has_max;
    double min, max;
    char alias[NAME_LEN];        /* "a sample spells the key `X`" */
    char as_ref[32];             /* "kind 11" or a group name: "as in kind 11", "as POOL" */
    char category[32];           /* "storage" for the fields of a "Storage A (...):" bullet */
    int items_first, item_count; /* element fields in item_pool */
    const char *clause;          /* the reference text that states the field, for messages */
    int clause_len;
};

struct ref_spec {
    int count;
    struct ref_field f[MAX_FIELDS];
};

struct group_use {
    char name[32];
    int default_count; /* "(documented defaults 200, 8, 60, 0)" */
    char defaults[8][VALUE_LEN];
};

/* A kind section, a shared group, the Limits section: what was read, then what it resolves to. */
struct ref_section {
    int number;
    char title[200];
    const char *text;
    size_t len;
    char heading_type[64]; /* "(top-level `type` = `X`)" */
    struct ref_spec own;
    int inherits; /* "Same fields as kind N", "All fields of kind N" */
    char without[16][NAME_LEN];
    int without_count;
    struct group_use groups[MAX_GROUPS];
    int group_count;
    struct {
        char field[NAME_LEN];
        char value[VALUE_LEN];
        const char *sentence;
        int sentence_len;
    } free_defaults[8];
    int free_default_count;
    struct {
        char category[32];
        char mark;
    } category_marks[4];
    int category_mark_count;
    struct ref_spec resolved;
    int state; /* 0 read, 1 resolving, 2 resolved */
};

static struct schema_registry registry;
static char *reference;
static size_t reference_len;

static struct ref_section kinds[MAX_KINDS + 1];
static int kind_sections;
static struct ref_section groups[MAX_GROUPS];
static int group_total;
static struct ref_section limits;
static struct ref_field item_pool[MAX_ITEMS];
static int items_used;

/* ---- counts, failures and the documented exceptions ---- */

static struct {
    int kinds, titles, fields, item_fields, identifiers, enum_values, defaults, types, marks,
        secrets, formats, bounds, aliases, exclusions, conditions, groups, reverse, job_fields,
        job_enum_values, source_fields, limits;
} count;

static int failures;

struct exception {
    int kind;
    const char *field;
    const char *check;
    const char *sentence; /* the reference sentence */
    const char *reason;   /* the reading the schema follows */
    int used;
};

static struct exception exceptions[] = {
    {2, "username", "required",
     "`username` string R (master credentials or secret resource); ... `authenticationType` "
     "string R: ANONYMOUS (no authentication), MASTER (master database user credentials or "
     "secret resource), CLOUDA_PROFILE.",
     "R, but MASTER may use a secret resource instead, and ANONYMOUS uses no user: required "
     "only with MASTER when no secretResourceUrl is given (docs/readings.md, 'Required \"for\" a "
     "value')",
     0},
    {2, "password", "required",
     "`password` string R, secret; ... MASTER (master database user credentials or secret "
     "resource)",
     "as username: required only with MASTER when no secretResourceUrl is given", 0},
};

static void mismatch(int kind, const char *field, const char *check, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void mismatch(int kind, const char *field, const char *check, const char *fmt, ...)
{
    for (size_t i = 0; i < sizeof exceptions / sizeof *exceptions; i++) {
        struct exception *e = &exceptions[i];
        if (e->kind == kind && strcmp(e->field, field) == 0 && strcmp(e->check, check) == 0) {
            e->used++;
            return;
        }
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "reference walk: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

/* ---- small text helpers ---- */

static bool is_ident(const char *s, size_t n)
{
    if (n == 0 || !islower((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]))
            return false;
    return true;
}

static bool is_upper_value(const char *s, size_t n)
{
    if (n < 2 || !isupper((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

static bool is_number(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static void copy_text(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size)
        n = size - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static const char *find_in(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return s + i;
    return NULL;
}

static size_t trim_left(const char *s, size_t n, size_t i)
{
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    return i;
}

/* The index of the ')' that closes the '(' at s[i] (backticked text is skipped), or n. */
static size_t match_paren(const char *s, size_t n, size_t i)
{
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == '`') {
            i++;
            while (i < n && s[i] != '`')
                i++;
        } else if (s[i] == '(') {
            depth++;
        } else if (s[i] == ')') {
            if (--depth == 0)
                return i;
        }
    }
    return n;
}

/* ---- tokens: words, `backticked`, (parenthesised) and , ; : . ---- */

enum tok_kind { T_WORD, T_TICK, T_PAREN, T_PUNCT };

struct tok {
    enum tok_kind kind;
    const char *s;
    size_t n;
};

static int tokenize(const char *s, size_t n, struct tok *t, int max)
{
    int c = 0;
    size_t i = 0;
    while (i < n && c < max - 1) {
        char ch = s[i];
        if (isspace((unsigned char)ch) || ch == ')') {
            i++;
        } else if (ch == '`') {
            size_t j = i + 1;
            while (j < n && s[j] != '`')
                j++;
            t[c++] = (struct tok){T_TICK, s + i + 1, j - i - 1};
            i = j < n ? j + 1 : n;
        } else if (ch == '(') {
            size_t j = match_paren(s, n, i);
            t[c++] = (struct tok){T_PAREN, s + i + 1, (j < n ? j : n) - i - 1};
            i = j < n ? j + 1 : n;
        } else if (strchr(",;:.", ch) != NULL) {
            t[c++] = (struct tok){T_PUNCT, s + i, 1};
            i++;
        } else {
            size_t j = i;
            while (j < n && !isspace((unsigned char)s[j]) && strchr(",;:()`", s[j]) == NULL)
                j++;
            size_t wn = j - i;
            bool dot = false;
            while (wn > 1 && s[i + wn - 1] == '.') {
                wn--;
                dot = true;
            }
            t[c++] = (struct tok){T_WORD, s + i, wn};
            if (dot)
                t[c++] = (struct tok){T_PUNCT, s + i + wn, 1};
            i = j;
        }
    }
    return c;
}

static bool tok_is(const struct tok *t, const char *word)
{
    return t->kind == T_WORD && t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

static bool tok_punct(const struct tok *t, char p)
{
    return t->kind == T_PUNCT && t->s[0] == p;
}

static bool tok_upper(const struct tok *t)
{
    return t->kind == T_WORD && is_upper_value(t->s, t->n);
}

static bool tok_mark(const struct tok *t)
{
    return t->kind == T_WORD && t->n == 1 && (t->s[0] == 'R' || t->s[0] == 'O');
}

static const char *type_word(const char *s, size_t n)
{
    static const struct {
        const char *word, *type;
    } words[] = {
        {"string", "string"},   {"bool", "boolean"}, {"boolean", "boolean"}, {"int", "integer"},
        {"integer", "integer"}, {"array", "array"},  {"object", "object"},   {"objects", "object"},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (n == strlen(words[i].word) && memcmp(s, words[i].word, n) == 0)
            return words[i].type;
    return NULL;
}

static bool paren_is(const struct tok *t, const char *text)
{
    size_t b = trim_left(t->s, t->n, 0), e = t->n;
    while (e > b && isspace((unsigned char)t->s[e - 1]))
        e--;
    return t->kind == T_PAREN && e - b == strlen(text) && memcmp(t->s + b, text, e - b) == 0;
}

static bool paren_starts(const struct tok *t, const char *text)
{
    size_t b = trim_left(t->s, t->n, 0);
    return t->kind == T_PAREN && t->n - b >= strlen(text) &&
           memcmp(t->s + b, text, strlen(text)) == 0;
}

static struct ref_section *find_group(const char *s, size_t n)
{
    for (int g = 0; g < group_total; g++)
        if (strlen(groups[g].title) == n && memcmp(groups[g].title, s, n) == 0)
            return &groups[g];
    return NULL;
}

static void use_group(struct ref_section *sec, const char *s, size_t n)
{
    for (int g = 0; g < sec->group_count; g++)
        if (strlen(sec->groups[g].name) == n && memcmp(sec->groups[g].name, s, n) == 0)
            return;
    if (sec->group_count < MAX_GROUPS)
        copy_text(sec->groups[sec->group_count++].name, 32, s, n);
}

/* ---- field specs ---- */

static struct ref_field *spec_find(struct ref_spec *spec, const char *name)
{
    for (int i = 0; i < spec->count; i++)
        if (strcmp(spec->f[i].name, name) == 0)
            return &spec->f[i];
    return NULL;
}

static struct ref_field *spec_add(struct ref_spec *spec, const char *s, size_t n)
{
    char name[NAME_LEN];
    copy_text(name, sizeof name, s, n);
    struct ref_field *f = spec_find(spec, name);
    if (f != NULL)
        return f;
    assert_true(spec->count < MAX_FIELDS);
    f = &spec->f[spec->count++];
    memset(f, 0, sizeof *f);
    strcpy(f->name, name);
    return f;
}

/* Copies onto `dst` every attribute `src` states. */
static void merge_field(struct ref_field *dst, const struct ref_field *src)
{
    if (src->type[0])
        strcpy(dst->type, src->type);
    if (src->items_type[0])
        strcpy(dst->items_type, src->items_type);
    if (src->format[0])
        strcpy(dst->format, src->format);
    if (src->items_format[0])
        strcpy(dst->items_format, src->items_format);
    if (src->mark) {
        dst->mark = src->mark;
        dst->conditional = src->conditional;
    } else {
        dst->conditional |= src->conditional;
    }
    dst->required_when |= src->required_when;
    dst->secret |= src->secret;
    dst->sample_only |= src->sample_only;
    if (src->has_default) {
        dst->has_default = true;
        strcpy(dst->default_text, src->default_text);
    }
    if (src->has_enum) {
        dst->has_enum = true;
        dst->enum_count = src->enum_count;
        memcpy(dst->enums, src->enums, sizeof dst->enums);
    }
    if (src->has_min) {
        dst->has_min = true;
        dst->min = src->min;
    }
    if (src->has_max) {
        dst->has_max = true;
        dst->max = src->max;
    }
    if (src->alias[0])
        strcpy(dst->alias, src->alias);
    if (src->category[0])
        strcpy(dst->category, src->category);
    if (src->item_count > 0) {
        dst->items_first = src->items_first;
        dst->item_count = src->item_count;
    }
    if (src->clause != NULL) {
        dst->clause = src->clause;
        dst->clause_len = src->clause_len;
    }
}

static void add_enum(struct ref_field *f, const struct tok *t)
{
    if (f->enum_count < MAX_ENUMS)
        copy_text(f->enums[f->enum_count++], 48, t->s, t->n);
}

/* "A (meaning), B (default), C": the values from t[j]; returns the index after the list. */
static int parse_enum_list(struct ref_field *f, const struct tok *t, int c, int j)
{
    f->has_enum = true;
    f->enum_count = 0;
    while (j < c && tok_upper(&t[j])) {
        add_enum(f, &t[j]);
        j++;
        if (j < c && t[j].kind == T_PAREN) {
            if (paren_is(&t[j], "default")) {
                f->has_default = true;
                strcpy(f->default_text, f->enums[f->enum_count - 1]);
            }
            j++;
        }
        if (j + 1 < c && tok_punct(&t[j], ',') && tok_upper(&t[j + 1])) {
            j++;
            continue;
        }
        break;
    }
    return j;
}

static void parse_attrs(struct ref_section *sec, struct ref_field *f, const char *s, size_t n,
                        bool job_rules);

/* `{hostname: string (O), port: integer (O), default 9200}`: the element fields of an array. */
static void parse_shape(struct ref_section *sec, struct ref_field *f, const char *s, size_t n)
{
    size_t b = 0, e = n;
    while (b < e && (isspace((unsigned char)s[b]) || s[b] == '{'))
        b++;
    while (e > b && (isspace((unsigned char)s[e - 1]) || s[e - 1] == '}'))
        e--;
    f->items_first = items_used;
    f->item_count = 0;
    struct ref_field *current = NULL;
    size_t part = b;
    for (size_t i = b; i <= e; i++) {
        if (i < e && s[i] == '(') {
            i = match_paren(s, e, i);
            continue;
        }
        if (i < e && s[i] != ',')
            continue;
        size_t p = trim_left(s, i, part);
        size_t name_end = p;
        while (name_end < i && isalnum((unsigned char)s[name_end]))
            name_end++;
        if (name_end < i && s[name_end] == ':' && is_ident(s + p, name_end - p)) {
            assert_true(items_used < MAX_ITEMS);
            current = &item_pool[items_used++];
            memset(current, 0, sizeof *current);
            copy_text(current->name, NAME_LEN, s + p, name_end - p);
            current->clause = s;
            current->clause_len = (int)n;
            f->item_count++;
            parse_attrs(sec, current, s + name_end + 1, i - name_end - 1, false);
        } else if (current != NULL) {
            parse_attrs(sec, current, s + p, i - p, false); /* "default 9200" */
        }
        part = i + 1;
    }
}

static void parse_attrs(struct ref_section *sec, struct ref_field *f, const char *s, size_t n,
                        bool job_rules)
{
    struct tok t[MAX_TOKENS];
    int c = tokenize(s, n, t, MAX_TOKENS);
    for (int i = 0; i < c; i++) {
        const struct tok *k = &t[i];
        if (k->kind == T_WORD) {
            const char *tw = type_word(k->s, k->n);
            if (tw != NULL && !f->type[0]) {
                strcpy(f->type, tw);
                if (strcmp(tw, "array") == 0) {
                    int j = i + 1;
                    while (j < c && tok_mark(&t[j]))
                        f->mark = t[j++].s[0];
                    if (j + 1 < c && tok_is(&t[j], "of")) {
                        const char *it = type_word(t[j + 1].s, t[j + 1].n);
                        if (t[j + 1].kind == T_WORD && it != NULL) {
                            strcpy(f->items_type, it);
                            j += 2;
                        } else {
                            j++;
                        }
                        if (j < c && t[j].kind == T_TICK && t[j].n > 0 && t[j].s[0] == '{') {
                            strcpy(f->items_type, "object");
                            parse_shape(sec, f, t[j].s, t[j].n);
                            j++;
                        }
                        i = j - 1;
                    }
                }
            } else if (tok_mark(k) && !f->mark) {
                f->mark = k->s[0];
            } else if (tok_is(k, "default") && !job_rules && i + 1 < c &&
                       (t[i + 1].kind == T_WORD || t[i + 1].kind == T_TICK)) {
                f->has_default = true;
                copy_text(f->default_text, VALUE_LEN, t[i + 1].s, t[i + 1].n);
                i++;
            } else if (tok_is(k, "enum") || tok_is(k, "Enum")) {
                int j = i + 1;
                if (j < c && tok_punct(&t[j], ':'))
                    j++;
                i = parse_enum_list(f, t, c, j) - 1;
            } else if (tok_is(k, "value") && !job_rules && i + 1 < c && tok_upper(&t[i + 1])) {
                f->has_enum = true; /* "value SERVICE_ACCOUNT_KEYS": the one allowed value */
                f->enum_count = 0;
                add_enum(f, &t[++i]);
            } else if (tok_is(k, "mapping")) {
                /* "mapping A to x, B to y": the values are the A, B, ... */
                f->has_enum = true;
                f->enum_count = 0;
                for (int j = i + 1; j + 1 < c; j++)
                    if (tok_upper(&t[j]) && tok_is(&t[j + 1], "to"))
                        add_enum(f, &t[j]);
            } else if ((tok_is(k, "min") || tok_is(k, "max")) && i + 1 < c &&
                       is_number(t[i + 1].s, t[i + 1].n)) {
                double v = strtod(t[i + 1].s, NULL);
                if (k->s[1] == 'i') {
                    f->has_min = true;
                    f->min = v;
                } else {
                    f->has_max = true;
                    f->max = v;
                }
                i++;
            } else if (is_number(k->s, k->n) && i + 2 < c && tok_is(&t[i + 1], "to") &&
                       is_number(t[i + 2].s, t[i + 2].n)) {
                f->has_min = f->has_max = true; /* "integer 1 to 100" */
                f->min = strtod(k->s, NULL);
                f->max = strtod(t[i + 2].s, NULL);
                i += 2;
            } else if (tok_is(k, "secret") && (i == 0 || tok_punct(&t[i - 1], ',')) &&
                       (i + 1 == c || t[i + 1].kind != T_WORD)) {
                f->secret = true; /* ", secret" as an attribute, not "the secret for" */
            } else if (tok_is(k, "etc") && i + 1 < c && tok_punct(&t[i + 1], '.')) {
                /* "`fetchSize` etc. as in POOL": the whole group */
                for (int j = i + 2; j < c && j < i + 6; j++)
                    if (t[j].kind == T_WORD && find_group(t[j].s, t[j].n) != NULL) {
                        use_group(sec, t[j].s, t[j].n);
                        break;
                    }
            }
        } else if (k->kind == T_PAREN) {
            if (paren_is(k, "secret"))
                f->secret = true;
            else if (paren_is(k, "O") || paren_is(k, "R"))
                f->mark = (char)k->s[trim_left(k->s, k->n, 0)];
            if (find_in(k->s, k->n, "UUID") != NULL)
                strcpy(f->format, "uuid");
            if (find_in(k->s, k->n, "`<timestamp>`") != NULL)
                strcpy(f->format, "timestamp");
            if (find_in(k->s, k->n, "`<EMAIL>`") != NULL)
                strcpy(f->format, "email");
        } else if (k->kind == T_TICK) {
            if (k->n == 11 && memcmp(k->s, "<timestamp>", 11) == 0)
                strcpy(f->format, "timestamp");
            if (k->n == 7 && memcmp(k->s, "<EMAIL>", 7) == 0)
                strcpy(f->format, "email");
        } else if (tok_punct(k, ':') && i > 0 && i + 1 < c && tok_upper(&t[i + 1]) &&
                   (tok_mark(&t[i - 1]) ||
                    (t[i - 1].kind == T_WORD && type_word(t[i - 1].s, t[i - 1].n) != NULL))) {
            /* "`authenticationType` string R: ANONYMOUS (...), MASTER (...), CLOUDA_PROFILE" */
            i = parse_enum_list(f, t, c, i + 1) - 1;
        }
    }

    /* Phrases, wherever they are (parenthesised text included). */
    if (find_in(s, n, "required for") || find_in(s, n, "required when") ||
        find_in(s, n, "required only"))
        f->conditional = f->required_when = true;
    if (find_in(s, n, "only for"))
        f->conditional = true;
    if (find_in(s, n, "only in a sample"))
        f->sample_only = true;
    const char *spells = find_in(s, n, "spells the key `");
    if (spells != NULL) {
        const char *a = spells + strlen("spells the key `");
        const char *end = memchr(a, '`', n - (size_t)(a - s));
        if (end != NULL)
            copy_text(f->alias, NAME_LEN, a, (size_t)(end - a));
    }
    if (find_in(s, n, "cannot contain periods or spaces"))
        strcpy(strcmp(f->type, "array") == 0 ? f->items_format : f->format, "namespace");
    if (job_rules && n >= 9 && memcmp(s + trim_left(s, n, 0), "Timestamp", 9) == 0)
        strcpy(f->format, "timestamp");
    if (find_in(s, n, "same element shape")) {
        /* SECRETPROPS: "same element shape" as the group field before it that has one */
        for (int g = group_total - 1; g >= 0 && f->item_count == 0; g--)
            for (int i = 0; i < groups[g].own.count; i++)
                if (groups[g].own.f[i].item_count > 0 && &groups[g].own.f[i] != f) {
                    f->items_first = groups[g].own.f[i].items_first;
                    f->item_count = groups[g].own.f[i].item_count;
                    strcpy(f->type, groups[g].own.f[i].type);
                    strcpy(f->items_type, groups[g].own.f[i].items_type);
                    break;
                }
    }
    /* "(a sample carries all three with the POOL and PROPS shapes)": a field takes the shape
     * of the named group that has it */
    if (find_in(s, n, " shapes") != NULL && !f->as_ref[0]) {
        struct tok w[MAX_TOKENS];
        int wc = 0;
        for (int i = 0; i < c; i++)
            if (t[i].kind == T_PAREN && find_in(t[i].s, t[i].n, " shapes") != NULL)
                wc = tokenize(t[i].s, t[i].n, w, MAX_TOKENS);
        for (int j = 0; j < wc; j++) {
            struct ref_section *g = w[j].kind == T_WORD ? find_group(w[j].s, w[j].n) : NULL;
            if (g != NULL && spec_find(&g->own, f->name) != NULL)
                strcpy(f->as_ref, g->title);
        }
    }
    /* "as in kind N", "as kind N", "as in GROUP", "as GROUP" */
    for (const char *p = s; (p = find_in(p, n - (size_t)(p - s), "as ")) != NULL; p += 3) {
        if (p > s && isalpha((unsigned char)p[-1]))
            continue;
        struct tok w[4];
        int wc = tokenize(p + 3, n - (size_t)(p + 3 - s), w, 4);
        int j = 0;
        if (j < wc && tok_is(&w[j], "in"))
            j++;
        if (j + 1 < wc && tok_is(&w[j], "kind") && is_number(w[j + 1].s, w[j + 1].n)) {
            snprintf(f->as_ref, sizeof f->as_ref, "kind %.*s", (int)w[j + 1].n, w[j + 1].s);
            break;
        }
        if (j < wc && w[j].kind == T_WORD && find_group(w[j].s, w[j].n) != NULL) {
            copy_text(f->as_ref, sizeof f->as_ref, w[j].s, w[j].n);
            break;
        }
    }
}

/* Text between field specs: inheritance, exclusions, groups, irregular sentences. */
static void parse_free(struct ref_section *sec, const char *s, size_t n, struct ref_field *prev)
{
    struct tok t[MAX_TOKENS];
    int c = tokenize(s, n, t, MAX_TOKENS);
    for (int i = 0; i < c; i++) {
        const struct tok *k = &t[i];
        if (tok_is(k, "fields") && i + 3 < c &&
            (tok_is(&t[i + 1], "as") || tok_is(&t[i + 1], "of")) && tok_is(&t[i + 2], "kind") &&
            is_number(t[i + 3].s, t[i + 3].n)) {
            sec->inherits = atoi(t[i + 3].s); /* "Same fields as kind N", "All fields of kind N" */
        } else if (k->kind == T_PAREN && paren_starts(k, "without")) {
            struct tok w[64];
            int wc = tokenize(k->s, k->n, w, 64);
            for (int j = 0; j < wc; j++)
                if (w[j].kind == T_TICK && is_ident(w[j].s, w[j].n) && sec->without_count < 16)
                    copy_text(sec->without[sec->without_count++], NAME_LEN, w[j].s, w[j].n);
        } else if (k->kind == T_WORD && find_group(k->s, k->n) != NULL &&
                   (i == 0 || tok_punct(&t[i - 1], ',') || tok_punct(&t[i - 1], ';')) &&
                   (i + 1 == c || t[i + 1].kind != T_WORD)) {
            use_group(sec, k->s, k->n);
            if (i + 1 < c && paren_starts(&t[i + 1], "documented defaults")) {
                struct group_use *g = NULL;
                for (int u = 0; u < sec->group_count; u++)
                    if (strlen(sec->groups[u].name) == k->n &&
                        memcmp(sec->groups[u].name, k->s, k->n) == 0)
                        g = &sec->groups[u];
                struct tok w[32];
                int wc = tokenize(t[i + 1].s, t[i + 1].n, w, 32);
                for (int j = 2; j < wc && g->default_count < 8; j++)
                    if (w[j].kind == T_WORD || w[j].kind == T_TICK)
                        copy_text(g->defaults[g->default_count++], VALUE_LEN, w[j].s, w[j].n);
            }
        } else if (tok_is(k, "default") && i + 2 < c && t[i + 1].kind == T_WORD &&
                   is_ident(t[i + 1].s, t[i + 1].n) &&
                   (t[i + 2].kind == T_WORD || t[i + 2].kind == T_TICK) &&
                   sec->free_default_count < 8) {
            /* "The description states default port 5432 while the sample uses 1433." */
            int d = sec->free_default_count++;
            copy_text(sec->free_defaults[d].field, NAME_LEN, t[i + 1].s, t[i + 1].n);
            copy_text(sec->free_defaults[d].value, VALUE_LEN, t[i + 2].s, t[i + 2].n);
            sec->free_defaults[d].sentence = s;
            sec->free_defaults[d].sentence_len = (int)n;
        } else if (tok_is(k, "All") && i + 4 < c && t[i + 1].kind == T_WORD && t[i + 1].n > 9 &&
                   memcmp(t[i + 1].s + t[i + 1].n - 9, "-specific", 9) == 0 &&
                   tok_is(&t[i + 2], "fields") && tok_is(&t[i + 3], "are") && tok_mark(&t[i + 4]) &&
                   sec->category_mark_count < 4) {
            /* "All storage-specific fields are O in the type column." */
            int m = sec->category_mark_count++;
            copy_text(sec->category_marks[m].category, 32, t[i + 1].s, t[i + 1].n - 9);
            for (char *p = sec->category_marks[m].category; *p; p++)
                *p = (char)tolower((unsigned char)*p);
            sec->category_marks[m].mark = t[i + 4].s[0];
        }
    }
    /* "; O." after a field: its mark */
    if (prev != NULL && c >= 1 && tok_mark(&t[0]) && (c == 1 || (c == 2 && tok_punct(&t[1], '.'))))
        prev->mark = t[0].s[0];
}

/* Whether a field's text ends the way a list goes on: "`a` string, `b` ...", "`a` and `b`". */
static bool continues_list(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    return n > 0 && (s[n - 1] == ',' || (n >= 4 && memcmp(s + n - 4, " and", 4) == 0));
}

/* The part of a field's text that the fields listed before it share. Its own attributes come
 * first: a leading "(...)" ("`a`, `b` (secret), required for X") or, without one, what comes
 * before the first comma ("`a` string, `b` string (secret), both required for X"). A leading
 * parenthesis that speaks for the whole list ("(all required for X)") is shared. */
static size_t shared_part(const char *s, size_t n)
{
    size_t rest = trim_left(s, n, 0);
    if (rest < n && s[rest] == '(') {
        size_t inner = trim_left(s, n, rest + 1);
        if ((n - inner >= 4 && memcmp(s + inner, "all ", 4) == 0) ||
            (n - inner >= 5 && memcmp(s + inner, "both ", 5) == 0))
            return rest;
        rest = match_paren(s, n, rest) + 1;
        return rest > n ? n : rest;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '(')
            i = match_paren(s, n, i);
        else if (s[i] == '`')
            while (i + 1 < n && s[++i] != '`')
                ;
        else if (s[i] == ',')
            return i + 1;
    }
    return 0;
}

static bool is_separator(const char *s, size_t n)
{
    struct tok t[8];
    int c = tokenize(s, n, t, 8);
    for (int i = 0; i < c; i++)
        if (!tok_punct(&t[i], ',') && !tok_is(&t[i], "and"))
            return false;
    return true;
}

/* One bullet of a section: field specs at parenthesis depth 0, separated by ';' and sentence
 * ends; a list "`a`, `b` (x), shared" gives `a` the shared part (not `b`'s own "(x)"). */
static void parse_bullet(struct ref_section *sec, const char *b, size_t n)
{
    struct event {
        bool field;
        size_t start, end;
    } ev[128];
    int ec = 0;
    int depth = 0;
    for (size_t i = 0; i < n && ec < 127; i++) {
        if (b[i] == '`') {
            size_t j = i + 1;
            while (j < n && b[j] != '`')
                j++;
            if (depth == 0 && is_ident(b + i + 1, j - i - 1))
                ev[ec++] = (struct event){true, i, j < n ? j + 1 : n};
            i = j;
        } else if (b[i] == '(') {
            depth++;
        } else if (b[i] == ')') {
            if (depth > 0)
                depth--;
        } else if (depth == 0 && b[i] == ';') {
            ev[ec++] = (struct event){false, i, i + 1};
        } else if (depth == 0 && b[i] == '.' &&
                   !(i > 0 && isdigit((unsigned char)b[i - 1]) && i + 1 < n &&
                     isdigit((unsigned char)b[i + 1])) &&
                   (trim_left(b, n, i + 1) == n ||
                    (b[i + 1] == ' ' && i + 2 < n && isupper((unsigned char)b[i + 2])))) {
            ev[ec++] = (struct event){false, i, i + 1};
        }
    }
    ev[ec] = (struct event){false, n, n};

    struct ref_field *current = NULL, *prev = NULL;
    struct ref_field *pending[16];
    int pending_count = 0;
    char category[32] = "";
    size_t pos = 0;
    for (int e = 0; e <= ec; e++) {
        const char *seg = b + pos;
        size_t seg_len = ev[e].start - pos;
        if (current != NULL) {
            if (is_separator(seg, seg_len) && ev[e].field) {
                if (pending_count < 16)
                    pending[pending_count++] = current;
            } else {
                parse_attrs(sec, current, seg, seg_len, false);
                current->clause_len = (int)(seg + seg_len - current->clause);
                size_t rest = shared_part(seg, seg_len);
                for (int p = 0; p < pending_count; p++) {
                    parse_attrs(sec, pending[p], seg + rest, seg_len - rest, false);
                    pending[p]->clause_len = (int)(seg + seg_len - pending[p]->clause);
                }
                if (!ev[e].field || !continues_list(seg, seg_len))
                    pending_count = 0;
                else if (pending_count < 16)
                    pending[pending_count++] = current; /* "`a` string, `b` string, both ..." */
            }
        } else {
            parse_free(sec, seg, seg_len, prev);
            size_t end = seg_len;
            while (end > 0 && isspace((unsigned char)seg[end - 1]))
                end--;
            if (pos == 0 && end > 0 && seg[end - 1] == ':' && ev[e].field) {
                /* "Storage A (required when storageType is CLOUDA): `cloudaRootPath` ..." */
                size_t w = 0;
                while (w < end && isalpha((unsigned char)seg[w]) && w < sizeof category - 1) {
                    category[w] = (char)tolower((unsigned char)seg[w]);
                    w++;
                }
                category[w] = '\0';
            }
        }
        if (ev[e].field) {
            current = spec_add(&sec->own, b + ev[e].start + 1, ev[e].end - ev[e].start - 2);
            current->clause = b + ev[e].start;
            current->clause_len = (int)(ev[e].end - ev[e].start);
            if (category[0])
                strcpy(current->category, category);
        } else {
            if (current != NULL)
                prev = current;
            current = NULL;
            pending_count = 0;
        }
        pos = ev[e].end;
    }
}

/* The bullets of [s, s + n): lines starting with "- ", continuation lines joined. */
static void parse_bullets(struct ref_section *sec, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *line = s + i;
        const char *nl = memchr(line, '\n', n - i);
        size_t line_len = nl ? (size_t)(nl - line) : n - i;
        if (line_len >= 2 && line[0] == '-' && line[1] == ' ') {
            size_t end = i + line_len;
            /* continuation lines: not blank, not a new bullet, not a heading */
            while (end < n) {
                const char *next = s + end + 1;
                const char *nnl = memchr(next, '\n', n - end - 1);
                size_t next_len = nnl ? (size_t)(nnl - next) : n - end - 1;
                if (next_len == 0 || next[0] == '-' || next[0] == '#' || next[0] == '*' ||
                    next[0] == '|')
                    break;
                end += 1 + next_len;
            }
            parse_bullet(sec, line + 2, end - i - 2);
            i = end + 1;
        } else {
            i += line_len + 1;
        }
    }
}

/* ---- reading the reference ---- */

static const char *find_line(const char *from, const char *prefix)
{
    size_t k = strlen(prefix);
    const char *end = reference + reference_len;
    for (const char *p = from; p < end;) {
        if ((size_t)(end - p) >= k && memcmp(p, prefix, k) == 0)
            return p;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    return NULL;
}

static const char *line_end(const char *p)
{
    const char *end = reference + reference_len;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

static void read_groups(void)
{
    const char *start = find_line(reference, "Shared groups");
    assert_non_null(start);
    const char *stop = find_line(start, "### ");
    assert_non_null(stop);
    for (const char *p = start; p < stop; p = line_end(p) + 1) {
        const char *e = line_end(p);
        if (e - p < 4 || p[0] != '-' || p[1] != ' ')
            continue;
        const char *name = p + 2;
        const char *colon = memchr(name, ':', (size_t)(e - name));
        if (colon == NULL || !is_upper_value(name, (size_t)(colon - name)))
            continue; /* "- Secret fields: ..." is a convention, not a group */
        assert_true(group_total < MAX_GROUPS);
        struct ref_section *g = &groups[group_total++];
        copy_text(g->title, sizeof g->title, name, (size_t)(colon - name));
        g->text = colon + 1;
        g->len = (size_t)(e - colon - 1);
        parse_bullet(g, g->text, g->len);
        if (g->own.count == 0)
            mismatch(0, g->title, "group", "group %s: no field found in \"%.*s\"", g->title,
                     (int)g->len, g->text);
    }
}

static void read_kinds(void)
{
    const char *start = find_line(reference, "### Source kinds");
    assert_non_null(start);
    const char *stop = find_line(start, "## ");
    assert_non_null(stop);
    const char *p = find_line(start, "**");
    while (p != NULL && p < stop) {
        const char *next = find_line(line_end(p) + 1, "**");
        if (next == NULL || next > stop)
            next = stop;
        const char *e = line_end(p);
        int number = atoi(p + 2);
        const char *dot = memchr(p, '.', (size_t)(e - p));
        const char *close = dot ? find_in(dot, (size_t)(e - dot), "**") : NULL;
        if (number < 1 || number > MAX_KINDS || dot == NULL || close == NULL) {
            mismatch(0, "", "kind", "a kind heading that does not read \"**N. Title**\": %.*s",
                     (int)(e - p), p);
            p = next;
            continue;
        }
        struct ref_section *k = &kinds[number];
        if (k->number != 0)
            mismatch(number, "", "kind", "kind %d has two sections", number);
        k->number = number;
        copy_text(k->title, sizeof k->title, dot + 2, (size_t)(close - dot - 2));
        k->text = p;
        k->len = (size_t)(next - p);
        const char *type_at = find_in(close, (size_t)(e - close), "`type` = `");
        if (type_at != NULL) {
            const char *v = type_at + strlen("`type` = `");
            const char *ve = memchr(v, '`', (size_t)(e - v));
            if (ve != NULL)
                copy_text(k->heading_type, sizeof k->heading_type, v, (size_t)(ve - v));
        }
        parse_bullets(k, e, (size_t)(next - e));
        kind_sections++;
        p = next;
    }
}

/* ---- resolving inheritance, groups and references ---- */

static void resolve_kind(int number);

static const struct ref_field *lookup_ref(const char *as_ref, const char *name)
{
    if (strncmp(as_ref, "kind ", 5) == 0) {
        int n = atoi(as_ref + 5);
        if (n < 1 || n > MAX_KINDS || kinds[n].number == 0)
            return NULL;
        resolve_kind(n);
        return spec_find(&kinds[n].resolved, name);
    }
    struct ref_section *g = find_group(as_ref, strlen(as_ref));
    return g ? spec_find(&g->own, name) : NULL;
}

static void resolve_section(struct ref_section *sec, int number)
{
    struct ref_spec *r = &sec->resolved;
    r->count = 0;
    if (sec->inherits) {
        if (sec->inherits < 1 || sec->inherits > MAX_KINDS || kinds[sec->inherits].number == 0) {
            mismatch(number, "", "inherit", "kind %d inherits from a kind %d that has no section",
                     number, sec->inherits);
        } else {
            resolve_kind(sec->inherits);
            const struct ref_spec *base = &kinds[sec->inherits].resolved;
            for (int i = 0; i < base->count; i++) {
                bool excluded = false;
                for (int w = 0; w < sec->without_count; w++)
                    excluded |= strcmp(sec->without[w], base->f[i].name) == 0;
                if (!excluded)
                    r->f[r->count++] = base->f[i];
            }
            for (int w = 0; w < sec->without_count; w++)
                if (spec_find((struct ref_spec *)base, sec->without[w]) == NULL)
                    mismatch(number, sec->without[w], "without",
                             "kind %d: \"without `%s`\", but kind %d does not have `%s`", number,
                             sec->without[w], sec->inherits, sec->without[w]);
        }
    }
    for (int u = 0; u < sec->group_count; u++) {
        const struct group_use *use = &sec->groups[u];
        struct ref_section *g = find_group(use->name, strlen(use->name));
        if (g == NULL)
            continue;
        if (use->default_count != 0 && use->default_count != g->own.count)
            mismatch(number, use->name, "group-defaults",
                     "kind %d: %s lists %d documented defaults for the group's %d fields", number,
                     use->name, use->default_count, g->own.count);
        for (int i = 0; i < g->own.count; i++) {
            struct ref_field copy = g->own.f[i];
            if (i < use->default_count) {
                copy.has_default = true;
                strcpy(copy.default_text, use->defaults[i]);
            }
            struct ref_field *dst = spec_find(r, copy.name);
            if (dst != NULL)
                merge_field(dst, &copy);
            else
                r->f[r->count++] = copy;
        }
    }
    for (int i = 0; i < sec->own.count; i++) {
        struct ref_field x = sec->own.f[i];
        if (x.as_ref[0]) {
            const struct ref_field *base = lookup_ref(x.as_ref, x.name);
            if (base != NULL) {
                struct ref_field tmp = *base;
                merge_field(&tmp, &x);
                x = tmp;
            }
        }
        struct ref_field *dst = spec_find(r, x.name);
        if (dst != NULL) {
            merge_field(dst, &x);
        } else {
            assert_true(r->count < MAX_FIELDS);
            r->f[r->count++] = x;
        }
    }
    for (int m = 0; m < sec->category_mark_count; m++)
        for (int i = 0; i < r->count; i++)
            if (strcmp(r->f[i].category, sec->category_marks[m].category) == 0 && !r->f[i].mark)
                r->f[i].mark = sec->category_marks[m].mark;
    for (int d = 0; d < sec->free_default_count; d++) {
        struct ref_field *f = spec_find(r, sec->free_defaults[d].field);
        if (f == NULL) {
            mismatch(number, sec->free_defaults[d].field, "free-default",
                     "kind %d: \"%.*s\" states a default for `%s`, which the kind does not have",
                     number, sec->free_defaults[d].sentence_len, sec->free_defaults[d].sentence,
                     sec->free_defaults[d].field);
            continue;
        }
        f->has_default = true;
        strcpy(f->default_text, sec->free_defaults[d].value);
    }
}

static void resolve_kind(int number)
{
    struct ref_section *k = &kinds[number];
    if (k->state == 2)
        return;
    if (k->state == 1) {
        mismatch(number, "", "inherit", "kind %d inherits from itself", number);
        return;
    }
    k->state = 1;
    resolve_section(k, number);
    k->state = 2;
}

/* ---- comparing with the schema ---- */

static uint32_t type_bit(const char *type)
{
    if (strcmp(type, "string") == 0)
        return SCHEMA_STRING;
    if (strcmp(type, "boolean") == 0)
        return SCHEMA_BOOLEAN;
    if (strcmp(type, "integer") == 0)
        return SCHEMA_INTEGER;
    if (strcmp(type, "array") == 0)
        return SCHEMA_ARRAY;
    if (strcmp(type, "object") == 0)
        return SCHEMA_OBJECT;
    return 0;
}

static const char *format_name(enum schema_format format)
{
    switch (format) {
    case SCHEMA_FORMAT_UUID: return "uuid";
    case SCHEMA_FORMAT_TIMESTAMP: return "timestamp";
    case SCHEMA_FORMAT_NAMESPACE: return "namespace";
    case SCHEMA_FORMAT_EMAIL: return "email";
    case SCHEMA_FORMAT_PORT: return "port";
    default: return "";
    }
}

static void check_format(int kind, const char *where, const char *name, const char *ref_format,
                         enum schema_format schema_format)
{
    const char *sf = format_name(schema_format);
    if (strcmp(sf, "port") == 0)
        sf = ""; /* the port format is srcls policy, not the reference's */
    if (strcmp(ref_format, sf) != 0)
        mismatch(kind, name, "format",
                 "%s: `%s`: the reference gives format \"%s\", the schema \"%s\"", where, name,
                 ref_format, sf);
    else if (ref_format[0])
        count.formats++;
}

static void check_field(int kind, const char *where, const struct schema_object *obj,
                        const struct ref_field *rf, bool item);

static void check_items(int kind, const char *where, const struct schema_field *sf,
                        const struct ref_field *rf)
{
    if (rf->items_type[0]) {
        if (sf->items == NULL || !(sf->items->types & type_bit(rf->items_type)))
            mismatch(kind, rf->name, "items-type",
                     "%s: `%s`: the reference's elements are %s, the schema's are not", where,
                     rf->name, rf->items_type);
        else
            count.types++;
    }
    if (sf->items != NULL)
        check_format(kind, where, rf->name, rf->items_format, sf->items->format);
    if (rf->item_count == 0)
        return;
    if (sf->items == NULL || sf->items->object == NULL) {
        mismatch(kind, rf->name, "items",
                 "%s: `%s`: the reference gives element fields, the schema none", where, rf->name);
        return;
    }
    char inner[256];
    snprintf(inner, sizeof inner, "%s, elements of `%s`", where, rf->name);
    for (int i = 0; i < rf->item_count; i++)
        check_field(kind, inner, sf->items->object, &item_pool[rf->items_first + i], true);
    for (uint32_t i = 0; i < sf->items->object->field_count; i++) {
        const char *name = sf->items->object->fields[i].name;
        bool found = false;
        for (int j = 0; j < rf->item_count; j++)
            found |= strcmp(item_pool[rf->items_first + j].name, name) == 0;
        if (!found)
            mismatch(kind, name, "reverse", "%s: the schema has `%s`, the reference does not",
                     inner, name);
        else
            count.reverse++;
    }
}

static void check_field(int kind, const char *where, const struct schema_object *obj,
                        const struct ref_field *rf, bool item)
{
    const struct schema_field *sf = schema_object_field(obj, rf->name, strlen(rf->name));
    if (sf == NULL) {
        mismatch(kind, rf->name, "field",
                 "%s: `%s` is in the reference but not in the schema (\"%.*s\")", where, rf->name,
                 rf->clause_len, rf->clause ? rf->clause : "");
        return;
    }
    if (item)
        count.item_fields++;
    else
        count.fields++;

    if (rf->type[0]) {
        if (!(sf->types & type_bit(rf->type)))
            mismatch(kind, rf->name, "type",
                     "%s: `%s`: the reference lists %s, the schema does not", where, rf->name,
                     rf->type);
        else
            count.types++;
    }

    if (rf->mark == 'O') {
        if (sf->required)
            mismatch(kind, rf->name, "optional",
                     "%s: `%s` is O in the reference, required in the schema", where, rf->name);
        else
            count.marks++;
    } else if (rf->mark == 'R' && !rf->conditional) {
        if (!sf->required)
            mismatch(
                kind, rf->name, "required",
                "%s: `%s` is R (with no condition) in the reference, not required in the schema",
                where, rf->name);
        else
            count.marks++;
    } else if (sf->required && kind > 0) { /* the Job table has no R/O column */
        mismatch(kind, rf->name, "required",
                 "%s: `%s` is always required in the schema, the reference does not mark it R "
                 "without a condition",
                 where, rf->name);
    }

    if (rf->required_when) {
        if (sf->required_when == NULL)
            mismatch(kind, rf->name, "required-when",
                     "%s: `%s`: the reference says when it is required (\"%.*s\"), the schema "
                     "has no condition",
                     where, rf->name, rf->clause_len, rf->clause ? rf->clause : "");
        else
            count.conditions++;
    }

    if (rf->has_default) {
        const char *want = rf->default_text;
        if (!sf->has_default) {
            mismatch(kind, rf->name, "default",
                     "%s: `%s`: the reference states default %s, the schema has none", where,
                     rf->name, want);
        } else if (strlen(want) != sf->default_value.len ||
                   memcmp(want, sf->default_value.text, sf->default_value.len) != 0) {
            mismatch(kind, rf->name, "default",
                     "%s: `%s`: the reference states default %s, the schema %.*s", where, rf->name,
                     want, (int)sf->default_value.len, sf->default_value.text);
        } else {
            uint32_t t = sf->default_value.type;
            bool type_ok =
                !rf->type[0] || (strcmp(rf->type, "string") == 0 && t == SCHEMA_STRING) ||
                (strcmp(rf->type, "integer") == 0 && (t == SCHEMA_INTEGER || t == SCHEMA_NUMBER)) ||
                (strcmp(rf->type, "boolean") == 0 && t == SCHEMA_BOOLEAN);
            if (!type_ok)
                mismatch(kind, rf->name, "default",
                         "%s: `%s`: the default %s is not a JSON %s in the schema", where, rf->name,
                         want, rf->type);
            else
                count.defaults++;
        }
    } else if (sf->has_default) {
        mismatch(kind, rf->name, "default",
                 "%s: `%s`: the schema has default %.*s, the reference states none", where,
                 rf->name, (int)sf->default_value.len, sf->default_value.text);
    }

    if (rf->has_enum) {
        for (int i = 0; i < rf->enum_count; i++) {
            bool found = false;
            for (uint32_t j = 0; j < sf->enum_count && !found; j++)
                found = strcmp(sf->enums[j].value.text, rf->enums[i]) == 0;
            if (!found)
                mismatch(kind, rf->name, "enum",
                         "%s: `%s`: enum value %s of the reference is not in the schema", where,
                         rf->name, rf->enums[i]);
            else if (kind > 0)
                count.enum_values++;
            else
                count.job_enum_values++;
        }
        for (uint32_t j = 0; j < sf->enum_count; j++) {
            bool found = false;
            for (int i = 0; i < rf->enum_count && !found; i++)
                found = strcmp(sf->enums[j].value.text, rf->enums[i]) == 0;
            if (!found)
                mismatch(kind, rf->name, "enum",
                         "%s: `%s`: the schema allows %s, the reference does not", where, rf->name,
                         sf->enums[j].value.text);
        }
    } else if (sf->enum_count > 0) {
        mismatch(kind, rf->name, "enum", "%s: `%s`: the schema has an enum, the reference none",
                 where, rf->name);
    }

    if (rf->has_min) {
        if (!sf->has_minimum || sf->minimum != rf->min)
            mismatch(kind, rf->name, "bounds", "%s: `%s`: the reference gives min %g", where,
                     rf->name, rf->min);
        else
            count.bounds++;
    }
    if (rf->has_max) {
        if (!sf->has_maximum || sf->maximum != rf->max)
            mismatch(kind, rf->name, "bounds", "%s: `%s`: the reference gives max %g", where,
                     rf->name, rf->max);
        else
            count.bounds++;
    } else if (sf->has_maximum) {
        mismatch(kind, rf->name, "bounds",
                 "%s: `%s`: the schema has maximum %g, the reference none", where, rf->name,
                 sf->maximum);
    }

    if (rf->secret != sf->secret)
        mismatch(kind, rf->name, "secret", "%s: `%s` is %s in the reference, %s in the schema",
                 where, rf->name, rf->secret ? "secret" : "not secret",
                 sf->secret ? "secret" : "not secret");
    else if (rf->secret)
        count.secrets++;

    if (rf->sample_only != sf->sample_only)
        mismatch(kind, rf->name, "sampleOnly",
                 "%s: `%s`: sample-only differs (reference %d, schema %d)", where, rf->name,
                 rf->sample_only, sf->sample_only);

    check_format(kind, where, rf->name, rf->format, sf->format);

    if (rf->alias[0]) {
        if (schema_object_alias(obj, rf->alias, strlen(rf->alias)) != sf)
            mismatch(kind, rf->name, "alias",
                     "%s: the reference says a sample spells `%s` as `%s`; the "
                     "schema has no such alias",
                     where, rf->name, rf->alias);
        else
            count.aliases++;
    }

    check_items(kind, where, sf, rf);
}

/* Every backticked camelCase identifier of the section must be accounted for. */
static void check_identifiers(const struct ref_section *k)
{
    const char *s = k->text;
    size_t n = k->len;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '`')
            continue;
        size_t j = i + 1;
        while (j < n && s[j] != '`')
            j++;
        const char *id = s + i + 1;
        size_t len = j - i - 1;
        i = j;
        if (!is_ident(id, len))
            continue; /* `/`, `<EMAIL>`, `{hostname: ...}`, `SERVICE_CATALOG_EXTERNAL_V1` */
        char name[NAME_LEN];
        copy_text(name, sizeof name, id, len);
        count.identifiers++;
        if (spec_find((struct ref_spec *)&k->resolved, name) != NULL)
            continue;
        bool accounted = false;
        for (int w = 0; w < k->without_count; w++)
            accounted |= strcmp(k->without[w], name) == 0;
        for (int f = 0; f < k->resolved.count; f++)
            accounted |= strcmp(k->resolved.f[f].alias, name) == 0;
        if (k->heading_type[0] && strcmp(name, "type") == 0 &&
            schema_object_field(registry.source.object, "type", 4) != NULL)
            accounted = true; /* "(top-level `type` = `X`)": a key of the source, not of config */
        if (!accounted)
            mismatch(k->number, name, "identifier",
                     "kind %d: `%s` is in the section but the walk could not place it", k->number,
                     name);
    }
}

/* SRCLS_WALK_DUMP=1: what the walk read, to see why it places a field where it does. */
static void dump_field(const struct ref_field *f, const char *indent)
{
    fprintf(stderr, "%s%s type=%s%s%s mark=%c%s%s%s", indent, f->name, f->type,
            f->items_type[0] ? " of " : "", f->items_type, f->mark ? f->mark : '-',
            f->conditional ? " conditional" : "", f->secret ? " secret" : "",
            f->sample_only ? " sample-only" : "");
    if (f->has_default)
        fprintf(stderr, " default=%s", f->default_text);
    if (f->has_enum) {
        fprintf(stderr, " enum=");
        for (int i = 0; i < f->enum_count; i++)
            fprintf(stderr, "%s%s", i ? "," : "", f->enums[i]);
    }
    if (f->has_min)
        fprintf(stderr, " min=%g", f->min);
    if (f->has_max)
        fprintf(stderr, " max=%g", f->max);
    if (f->format[0] || f->items_format[0])
        fprintf(stderr, " format=%s%s", f->format, f->items_format);
    if (f->alias[0])
        fprintf(stderr, " alias=%s", f->alias);
    if (f->as_ref[0])
        fprintf(stderr, " as=%s", f->as_ref);
    fprintf(stderr, "\n");
    for (int i = 0; i < f->item_count; i++)
        dump_field(&item_pool[f->items_first + i], "        ");
}

static void dump_kind(const struct ref_section *k)
{
    fprintf(stderr, "kind %d (%s) inherits=%d without=%d groups:", k->number, k->title, k->inherits,
            k->without_count);
    for (int g = 0; g < k->group_count; g++)
        fprintf(stderr, " %s", k->groups[g].name);
    fprintf(stderr, "\n");
    for (int i = 0; i < k->resolved.count; i++)
        dump_field(&k->resolved.f[i], "    ");
}

static const struct schema_kind *schema_kind_numbered(int number)
{
    for (uint32_t i = 0; i < registry.kind_count; i++)
        if (registry.kinds[i].number == number)
            return &registry.kinds[i];
    return NULL;
}

static void check_kind(int number)
{
    const struct ref_section *k = &kinds[number];
    const struct schema_kind *sk = schema_kind_numbered(number);
    if (k->number == 0) {
        mismatch(number, "", "kind", "kind %d has no section in the reference", number);
        return;
    }
    if (sk == NULL) {
        mismatch(number, "", "kind", "kind %d (%s) is not in the schema", number, k->title);
        return;
    }
    count.kinds++;
    /* the schema's title is the reference's, possibly without a trailing remark in
     * parentheses ("... versions 2.x and 3.x (identical shape)") */
    size_t tl = strlen(sk->title);
    if (strcmp(sk->title, k->title) != 0 &&
        !(strncmp(sk->title, k->title, tl) == 0 && strncmp(k->title + tl, " (", 2) == 0 &&
          k->title[strlen(k->title) - 1] == ')'))
        mismatch(number, "", "title",
                 "kind %d: the schema's title \"%s\" is not the reference's "
                 "\"%s\"",
                 number, sk->title, k->title);
    else
        count.titles++;
    char where[256];
    snprintf(where, sizeof where, "kind %d (%s)", number, k->title);
    for (int i = 0; i < k->resolved.count; i++)
        check_field(number, where, &sk->config, &k->resolved.f[i], false);
    for (int w = 0; w < k->without_count; w++) {
        if (schema_object_field(&sk->config, k->without[w], strlen(k->without[w])) != NULL)
            mismatch(number, k->without[w], "without",
                     "%s: the reference says the kind is without `%s`, the schema has it", where,
                     k->without[w]);
        else
            count.exclusions++;
    }
    count.groups += k->group_count;
    for (uint32_t i = 0; i < sk->config.field_count; i++) {
        const char *name = sk->config.fields[i].name;
        if (spec_find((struct ref_spec *)&k->resolved, name) == NULL)
            mismatch(number, name, "reverse",
                     "%s: the schema has `%s`, which the reference section does not give", where,
                     name);
        else
            count.reverse++;
    }
    if (k->heading_type[0]) {
        bool found = false;
        for (uint32_t t = 0; t < sk->type_count; t++)
            found |= strcmp(sk->types[t], k->heading_type) == 0;
        if (!found)
            mismatch(number, "type", "type-id",
                     "%s: the reference gives top-level type %s, the schema's "
                     "types do not include it",
                     where, k->heading_type);
    }
    check_identifiers(k);
}

/* ---- the Job tables ---- */

/* The field named `name` anywhere in the job's schema (objects and array elements). */
static const struct schema_field *find_nested(const struct schema_field *f, const char *name)
{
    const struct schema_object *obj = f->object ? f->object : (f->items ? f->items->object : NULL);
    if (obj == NULL)
        return NULL;
    for (uint32_t i = 0; i < obj->field_count; i++) {
        if (strcmp(obj->fields[i].name, name) == 0)
            return &obj->fields[i];
        const struct schema_field *inner = find_nested(&obj->fields[i], name);
        if (inner != NULL)
            return inner;
    }
    return NULL;
}

static void check_table(const char *label, const struct schema_object *obj, const char *rows,
                        const char *rows_end)
{
    static struct ref_section sink;
    memset(&sink, 0, sizeof sink);
    int row = 0;
    for (const char *p = rows; p < rows_end && *p == '|'; p = line_end(p) + 1, row++) {
        const char *e = line_end(p);
        if (row < 2)
            continue; /* header and |---| */
        const char *cell[4];
        size_t cell_len[4];
        int cells = 0;
        const char *c = p + 1;
        while (c < e && cells < 4) {
            const char *bar = memchr(c, '|', (size_t)(e - c));
            if (bar == NULL)
                break;
            size_t b = trim_left(c, (size_t)(bar - c), 0), l = (size_t)(bar - c);
            while (l > b && isspace((unsigned char)c[l - 1]))
                l--;
            cell[cells] = c + b;
            cell_len[cells++] = l - b;
            c = bar + 1;
        }
        if (cells < 3 || !is_ident(cell[0], cell_len[0])) {
            mismatch(0, label, "table", "%s: a row the walk cannot read: %.*s", label, (int)(e - p),
                     p);
            continue;
        }
        struct ref_field *f = spec_add(&sink.own, cell[0], cell_len[0]);
        f->clause = p;
        f->clause_len = (int)(e - p);
        parse_attrs(&sink, f, cell[1], cell_len[1], true);
        parse_attrs(&sink, f, cell[2], cell_len[2], true);
        count.job_fields++;
        check_field(0, label, obj, f, false);
    }
    for (uint32_t i = 0; i < obj->field_count; i++) {
        if (spec_find(&sink.own, obj->fields[i].name) == NULL)
            mismatch(0, obj->fields[i].name, "reverse",
                     "%s: the schema has `%s`, the reference table "
                     "does not",
                     label, obj->fields[i].name);
        else
            count.reverse++;
    }
}

static void read_job(void)
{
    const char *start = find_line(reference, "### Job");
    assert_non_null(start);
    const char *stop = find_line(line_end(start) + 1, "### ");
    assert_non_null(stop);
    const char *caption = start; /* the line before a table: the heading, then its caption */
    int tables = 0;
    const char *p = line_end(start) + 1;
    while (p < stop) {
        if (*p != '|') {
            if (line_end(p) > p)
                caption = p;
            p = line_end(p) + 1;
            continue;
        }
        const char *end = p;
        while (end < stop && *end == '|')
            end = line_end(end) + 1;
        const struct schema_object *obj = NULL;
        char label[160];
        if (caption == start) {
            obj = registry.job.object;
            snprintf(label, sizeof label, "job");
        } else if (caption == NULL) {
            mismatch(0, "", "table", "job: a table without a caption line");
        } else {
            /* "`acceleration` object:" or "Entry of `reflectionRelationships`:" */
            const char *ce = line_end(caption);
            const char *a = memchr(caption, '`', (size_t)(ce - caption));
            const char *b = a ? memchr(a + 1, '`', (size_t)(ce - a - 1)) : NULL;
            char name[NAME_LEN] = "";
            if (b != NULL)
                copy_text(name, sizeof name, a + 1, (size_t)(b - a - 1));
            bool entry = strncmp(caption, "Entry of", 8) == 0;
            const struct schema_field *f = name[0] ? find_nested(&registry.job, name) : NULL;
            snprintf(label, sizeof label, "job table \"%.*s\"", (int)(ce - caption), caption);
            if (f == NULL)
                mismatch(0, name, "table", "%s: the schema has no job field `%s`", label, name);
            else
                obj = entry ? (f->items ? f->items->object : NULL) : f->object;
            if (f != NULL && obj == NULL)
                mismatch(0, name, "table", "%s: `%s` has no %s in the schema", label, name,
                         entry ? "object elements" : "fields");
        }
        if (obj != NULL)
            check_table(label, obj, p, end);
        tables++;
        caption = NULL;
        p = end;
    }
    if (tables != 3)
        mismatch(0, "", "table",
                 "the Job section has %d tables, the walk expects the job, "
                 "`acceleration` and the entries of `reflectionRelationships`",
                 tables);
}

/* "One sample ... also shows the other top-level keys `name` (string), `config`, ..." */
static void read_source_keys(void)
{
    const char *p = find_in(reference, reference_len, "top-level keys");
    assert_non_null(p);
    const char *e = line_end(p);
    static struct ref_section sink;
    memset(&sink, 0, sizeof sink);
    for (const char *c = p; c < e; c++) {
        if (*c != '`')
            continue;
        const char *d = memchr(c + 1, '`', (size_t)(e - c - 1));
        if (d == NULL)
            break;
        if (is_ident(c + 1, (size_t)(d - c - 1))) {
            char name[NAME_LEN];
            copy_text(name, sizeof name, c + 1, (size_t)(d - c - 1));
            if (find_nested(&registry.source, name) == NULL)
                mismatch(0, name, "source",
                         "source: the reference shows top-level key `%s`, the "
                         "schema's source object does not have it",
                         name);
            else
                count.source_fields++;
            spec_add(&sink.own, name, strlen(name));
        }
        c = d;
    }
    for (uint32_t i = 0; i < registry.source.object->field_count; i++)
        if (spec_find(&sink.own, registry.source.object->fields[i].name) == NULL)
            mismatch(0, registry.source.object->fields[i].name, "reverse",
                     "source: the schema has top-level `%s`, the reference does not show it",
                     registry.source.object->fields[i].name);
}

/* "## Limits": every kind that has the field follows the stated default and range. */
static void read_limits(void)
{
    const char *start = find_line(reference, "## Limits");
    assert_non_null(start);
    const char *stop = find_line(line_end(start) + 1, "## ");
    if (stop == NULL)
        stop = reference + reference_len;
    memset(&limits, 0, sizeof limits);
    parse_bullets(&limits, start, (size_t)(stop - start));
    for (int i = 0; i < limits.own.count; i++) {
        const struct ref_field *rf = &limits.own.f[i];
        int holders = 0;
        for (uint32_t k = 0; k < registry.kind_count; k++) {
            const struct schema_kind *sk = &registry.kinds[k];
            const struct schema_field *sf =
                schema_object_field(&sk->config, rf->name, strlen(rf->name));
            if (sf == NULL)
                continue;
            holders++;
            if (rf->type[0] && !(sf->types & type_bit(rf->type)))
                mismatch(sk->number, rf->name, "limits", "Limits: `%s` is %s; kind %d's is not",
                         rf->name, rf->type, sk->number);
            if (rf->has_default &&
                (!sf->has_default || strlen(rf->default_text) != sf->default_value.len ||
                 memcmp(rf->default_text, sf->default_value.text, sf->default_value.len) != 0))
                mismatch(sk->number, rf->name, "limits", "Limits: `%s` default %s; kind %d differs",
                         rf->name, rf->default_text, sk->number);
            if (rf->has_min && (!sf->has_minimum || sf->minimum != rf->min))
                mismatch(sk->number, rf->name, "limits", "Limits: `%s` min %g; kind %d differs",
                         rf->name, rf->min, sk->number);
            if (rf->has_max && (!sf->has_maximum || sf->maximum != rf->max))
                mismatch(sk->number, rf->name, "limits", "Limits: `%s` max %g; kind %d differs",
                         rf->name, rf->max, sk->number);
            count.limits++;
        }
        if (holders == 0)
            mismatch(0, rf->name, "limits", "Limits: `%s` is a field of no kind in the schema",
                     rf->name);
    }
}

/* ---- the test ---- */

static int setup(void **state)
{
    (void)state;
    char error[512];
    int status = schema_registry_load_embedded(&registry, error, sizeof error);
    if (status != 0)
        fprintf(stderr, "schema: %s\n", error);
    return status;
}

static int teardown(void **state)
{
    (void)state;
    schema_registry_free(&registry);
    free(reference);
    return 0;
}

static bool load_reference(void)
{
    const char *path = getenv("SRCLS_REFERENCE");
    if (path == NULL)
        path = "../shared/seed/api-reference.md";
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr,
                "API reference not found at %s (set SRCLS_REFERENCE; it is outside the "
                "repository, so a clone of srcls alone does not have it): the reference walk is "
                "skipped\n",
                path);
        return false;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    reference = malloc((size_t)size + 1);
    reference_len = fread(reference, 1, (size_t)size, f);
    reference[reference_len] = '\0';
    fclose(f);
    return true;
}

static void test_the_schema_encodes_the_api_reference(void **state)
{
    (void)state;
    read_groups();
    read_kinds();
    for (int k = 1; k <= MAX_KINDS; k++)
        if (kinds[k].number != 0)
            resolve_kind(k);
    const char *dump = getenv("SRCLS_WALK_DUMP");
    for (int k = 1; k <= MAX_KINDS; k++) {
        if (dump != NULL && *dump != '\0' && kinds[k].number != 0)
            dump_kind(&kinds[k]);
        if (kinds[k].number != 0 || schema_kind_numbered(k) != NULL)
            check_kind(k);
    }
    if (registry.kind_count != (uint32_t)kind_sections)
        mismatch(0, "", "kinds", "the reference has %d kind sections, the schema %u kinds",
                 kind_sections, registry.kind_count);
    read_job();
    read_source_keys();
    read_limits();

    for (size_t i = 0; i < sizeof exceptions / sizeof *exceptions; i++) {
        const struct exception *e = &exceptions[i];
        if (e->used == 0) {
            fprintf(stderr,
                    "reference walk: the documented exception for kind %d `%s` (%s) no "
                    "longer applies; remove it\n",
                    e->kind, e->field, e->check);
            failures++;
        } else {
            fprintf(stderr, "documented exception: kind %d `%s` (%s): \"%s\" -- %s\n", e->kind,
                    e->field, e->check, e->sentence, e->reason);
        }
    }
    fprintf(stderr,
            "reference walk: %d kinds (%d titles), %d fields (+%d element fields), %d identifiers "
            "placed, "
            "%d enum values, %d defaults, %d types, %d R/O marks, %d required-when conditions, "
            "%d secret marks, %d formats, "
            "%d bounds, %d aliases, %d exclusions, %d group mentions, %d schema fields traced "
            "back; job: %d fields, %d enum values; source: %d top-level keys; limits: %d "
            "checks; %d mismatches\n",
            count.kinds, count.titles, count.fields, count.item_fields, count.identifiers,
            count.enum_values, count.defaults, count.types, count.marks, count.conditions,
            count.secrets, count.formats, count.bounds, count.aliases, count.exclusions,
            count.groups, count.reverse, count.job_fields, count.job_enum_values,
            count.source_fields, count.limits, failures);
    assert_int_equal(failures, 0);
    assert_int_equal(count.kinds, registry.kind_count);
}

/* The whole program is about the reference: without it, exit 77 so that meson says SKIP. */
int main(void)
{
    if (!load_reference())
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_schema_encodes_the_api_reference),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
