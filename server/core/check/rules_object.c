/* rules_object: checking one object against its schema object — unknown keys (with the nearest
 * known name), alternate spellings, each present field's value and applicability, required and
 * conditionally required fields, and the object's assertions. */
#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "condition.h"
#include "rules_internal.h"
#include "schema_at.h"
#include "suggest.h"

/* A condition in words, for a message. */
#define CONDITION_IN_MESSAGE_MAX 512

/* " for Object storage A (...)" or " in /config/x", for messages about the object. */
static void describe_place(struct rules *r, const struct rules_place *place, bool with_pointer,
                           char *out, size_t size)
{
    out[0] = '\0';
    if (place->kind != NULL) {
        snprintf(out, size, " for %s (%s)", place->kind->title, place->kind->types[0]);
    } else if (with_pointer && place->path != NULL) {
        const char *pointer = rules__pointer(r, place->path);
        if (pointer != NULL && pointer[0] != '\0')
            snprintf(out, size, " in %s", pointer);
    }
}

static void check_unknown_member(struct rules *r, const struct schema_object *schema,
                                 bool additional, const struct rules_place *place, uint32_t member,
                                 const struct rules_path *path)
{
    struct json_str key = json_node_key(r->doc, member);
    rules__scan_credentials(r, key, member, path);
    const struct schema_field *near = suggest_field(r->doc, schema, place->node, key, additional);
    if (additional && near == NULL)
        return;
    char where[160];
    describe_place(r, place, true, where, sizeof where);
    const char *message =
        near ? rules__printf(r, "unknown field \"%.*s\"%s; did you mean \"%s\"?", (int)key.len,
                             key.ptr, where, near->name)
             : rules__printf(r, "unknown field \"%.*s\"%s", (int)key.len, key.ptr, where);
    rules__report_at_key(r, CODE_UNKNOWN_FIELD, member, path, message);
    rules__annotate(r, member, NULL, near ? near->name : NULL);
}

/* What a rule between fields needs to know of an object's members. */
struct member_values {
    struct rules *r;
    const struct schema_object *schema;
    const uint32_t *members;
};

static bool member_invalid(void *context, const char *name)
{
    const struct member_values *v = context;
    const struct schema_field *field = schema_object_field(v->schema, name, strlen(name));
    if (field == NULL)
        return false;
    uint32_t member = v->members[field - v->schema->fields];
    return member != JSON_NONE && rules__value_invalid(v->r, field, member);
}

/* Whether condition `c` reads a value already reported invalid (wrong type, enum, bounds or
 * format, or a syntax error): a rule between fields never builds on such a value, which would
 * add a second, false finding to the first. Asked only once a rule would report, so that valid
 * documents pay nothing for it. */
static bool reads_invalid(struct rules *r, const struct schema_object *schema,
                          const uint32_t *members, const struct schema_condition *c)
{
    struct member_values values = {r, schema, members};
    return c != NULL && condition_reads_any(c, member_invalid, &values);
}

/* Whether `field` is required now: always, or by a condition that holds (on valid values). */
static bool required_now(struct rules *r, const struct schema_object *schema,
                         const struct rules_place *place, const uint32_t *members,
                         const struct schema_field *field)
{
    return field->required || (field->required_when != NULL &&
                               condition_evaluate_indexed(field->required_when, r->doc, schema,
                                                          place->node, members) &&
                               !reads_invalid(r, schema, members, field->required_when));
}

static void check_missing(struct rules *r, const struct schema_object *schema,
                          const struct rules_place *place, const uint32_t *members,
                          const struct schema_field *field)
{
    bool unconditional = field->required;
    if (!required_now(r, schema, place, members, field))
        return;
    uint32_t start, end;
    rules__object_anchor(r->doc, place->node, &start, &end);
    struct rules_path path = rules__path_key(place->path, field->name, strlen(field->name));
    const char *types = schema_types_describe(field->types, r->t->arena);
    if (unconditional) {
        char where[160];
        describe_place(r, place, false, where, sizeof where);
        rules__report(
            r, CODE_MISSING_REQUIRED, start, end, &path,
            rules__printf(r, "missing required field \"%s\" (%s)%s", field->name, types, where));
        rules__annotate(r, place->node, field, NULL);
        return;
    }
    char condition[CONDITION_IN_MESSAGE_MAX];
    condition_describe(field->required_when, condition, sizeof condition);
    rules__report(r, CODE_CONDITIONAL_REQUIRED, start, end, &path,
                  rules__printf(r, "missing field \"%s\" (%s): it is required when %s", field->name,
                                types, condition));
    rules__annotate(r, place->node, field, NULL);
}

static void check_assertions(struct rules *r, const struct schema_object *schema,
                             const struct rules_place *place, const uint32_t *members)
{
    for (uint32_t i = 0; i < schema->assertion_count; i++) {
        const struct schema_assertion *a = &schema->assertions[i];
        if (a->when != NULL &&
            !condition_evaluate_indexed(a->when, r->doc, schema, place->node, members))
            continue;
        if (condition_evaluate_indexed(a->expect, r->doc, schema, place->node, members) ||
            reads_invalid(r, schema, members, a->when) ||
            reads_invalid(r, schema, members, a->expect))
            continue;
        struct rules_path path = rules__path_key(place->path, a->field, strlen(a->field));
        uint32_t member = json_object_get(r->doc, place->node, a->field, strlen(a->field));
        enum diag_severity severity = a->has_severity ? a->severity : code_info(a->code)->severity;
        uint32_t start, end;
        if (member != JSON_NONE) {
            start = r->doc->nodes[member].start;
            end = r->doc->nodes[member].end;
        } else {
            rules__object_anchor(r->doc, place->node, &start, &end);
        }
        rules__report_as(r, a->code, severity, start, end, &path, a->message);
    }
}

/* A required field whose value is the empty string is not given: reported as missing (at the
 * value) when nothing else was said of it. No fix: the value is there to be filled in. */
static void check_empty_required(struct rules *r, const struct schema_object *schema,
                                 const struct rules_place *place, const uint32_t *members,
                                 const struct schema_field *field, uint32_t member,
                                 const struct rules_path *path)
{
    const struct json_node *n = &r->doc->nodes[member];
    if (n->kind != JSON_STRING || n->end - n->start != 2 || (n->flags & JSON_FLAG_UNTERMINATED) ||
        !required_now(r, schema, place, members, field))
        return;
    if (field->required) {
        rules__report_at_value(
            r, CODE_MISSING_REQUIRED, member, path,
            rules__printf(r, "required field \"%s\" is empty: give it a value", field->name));
        return;
    }
    char condition[CONDITION_IN_MESSAGE_MAX];
    condition_describe(field->required_when, condition, sizeof condition);
    rules__report_at_value(r, CODE_CONDITIONAL_REQUIRED, member, path,
                           rules__printf(r,
                                         "field \"%s\" is empty: it is required (give it a "
                                         "value) when %s",
                                         field->name, condition));
}

/* A member whose key names a field (or an alias of one): its value, and whether it applies. */
static void check_member(struct rules *r, const struct schema_object *schema,
                         const struct rules_place *place, const uint32_t *members,
                         const struct schema_field *field, uint32_t member,
                         const struct rules_path *path)
{
    uint32_t before = r->t->diags->count;
    rules__check_value(r, field, member, path);
    if (r->t->diags->count == before)
        check_empty_required(r, schema, place, members, field, member, path);
    if (field->applicable == NULL ||
        condition_evaluate_indexed(field->applicable, r->doc, schema, place->node, members) ||
        reads_invalid(r, schema, members, field->applicable))
        return;
    char condition[CONDITION_IN_MESSAGE_MAX];
    condition_describe(field->applicable, condition, sizeof condition);
    rules__report_at_key(r, CODE_NOT_APPLICABLE, member, path,
                         rules__printf(r, "\"%s\" has no effect here: it applies only when %s",
                                       field->name, condition));
    rules__annotate(r, member, field, NULL);
}

/* Whether the field name `name` is `key` (the first byte first: most names differ there). */
static bool name_is(const char *name, struct json_str key)
{
    return name[0] == (key.len > 0 ? key.ptr[0] : '\0') && strlen(name) == key.len &&
           memcmp(name, key.ptr, key.len) == 0;
}

/* Member `m` has a name of field `i` of rank `rank` (0: the name; 1 + a: alias a): it is the
 * field's member unless one of a lower rank is known. A later member of the same rank wins. */
static void index_note(uint32_t *members, uint32_t *ranks, uint32_t i, uint32_t rank, uint32_t m)
{
    if (members[i] == JSON_NONE || rank <= ranks[i]) {
        members[i] = m;
        ranks[i] = rank;
    }
}

/* The name index's entries for one member's key, kept from index_members for the walk that
 * checks the members: the key is looked up once. */
struct member_names {
    const struct schema_name *names;
    uint32_t count;
};

/* For each field of `schema` (by index), the member of `object` that schema_at_field_member
 * finds: the last one named by the field's name, else the last one named by its first alias
 * that names one, and so on; JSON_NONE when none does. One walk over the members, each key
 * looked up in the schema's name index, so that the required fields and the conditions cost no
 * rescan of the object. `ranks` is scratch; `looked` gets the entries of the first
 * `looked_cap` members' keys. */
static void index_members(struct json_doc *doc, const struct schema_object *schema, uint32_t object,
                          uint32_t *members, uint32_t *ranks, struct member_names *looked,
                          uint32_t looked_cap)
{
    for (uint32_t i = 0; i < schema->field_count; i++)
        members[i] = JSON_NONE;
    uint32_t k = 0;
    for (uint32_t m = doc->nodes[object].first_child; m != JSON_NONE; m = doc->nodes[m].next, k++) {
        struct json_str key = json_node_key(doc, m);
        if (schema->names != NULL) {
            uint32_t count;
            const struct schema_name *names = schema_object_names(schema, key.ptr, key.len, &count);
            for (uint32_t n = 0; n < count; n++)
                index_note(members, ranks, names[n].field, names[n].rank, m);
            if (k < looked_cap)
                looked[k] = (struct member_names){names, count};
            continue;
        }
        for (uint32_t i = 0; i < schema->field_count; i++) {
            const struct schema_field *f = &schema->fields[i];
            for (uint32_t rank = 0; rank <= f->alias_count; rank++) {
                if (name_is(rank == 0 ? f->name : f->aliases[rank - 1], key))
                    index_note(members, ranks, i, rank, m);
            }
        }
    }
}

/* The field `key` names (*alias NULL), or else the field it is an alias of (*alias that
 * field), or neither: from the entries index_members kept for the `k`th member when it did,
 * else by looking the key up. */
static const struct schema_field *member_field(const struct schema_object *schema,
                                               const struct member_names *looked,
                                               uint32_t looked_cap, uint32_t k, struct json_str key,
                                               const struct schema_field **alias)
{
    *alias = NULL;
    if (schema->names == NULL || k >= looked_cap) {
        const struct schema_field *field = schema_object_field(schema, key.ptr, key.len);
        if (field == NULL)
            *alias = schema_object_alias(schema, key.ptr, key.len);
        return field;
    }
    /* the entries of a name are in field order; its first of rank 0 is the field named */
    const struct schema_name *names = looked[k].names;
    for (uint32_t n = 0; n < looked[k].count; n++) {
        if (names[n].rank == 0)
            return &schema->fields[names[n].field];
    }
    if (looked[k].count > 0) /* no rank 0: every entry is an alias's */
        *alias = &schema->fields[names[0].field];
    return NULL;
}

/* Keys the parser took while recovering from a syntax error. */
#define INVENTED_KEY (JSON_FLAG_KEY_RECOVERED | JSON_FLAG_KEY_BARE | JSON_FLAG_KEY_UNTERMINATED)

/* Whether a syntax error cut `object` short, so that a field may be in the unreadable part: the
 * object is not closed (the document ended, or a bracket closed something else first), or one
 * of its strings runs to the end of its line (the rest of the line is lost with it). A missing
 * comma or a stray character loses nothing. */
static bool cut_short(const struct json_doc *doc, uint32_t object)
{
    if (doc->nodes[object].flags & JSON_FLAG_UNCLOSED)
        return true;
    for (uint32_t m = doc->nodes[object].first_child; m != JSON_NONE; m = doc->nodes[m].next) {
        if (doc->nodes[m].flags & (JSON_FLAG_UNTERMINATED | JSON_FLAG_KEY_UNTERMINATED))
            return true;
    }
    return false;
}

/* Fields of an object indexed on the stack; larger schemas use the analysis's arena. */
#define INDEX_ON_STACK 128

void rules__check_object(struct rules *r, const struct schema_object *schema, bool additional,
                         const struct rules_place *place)
{
    struct json_doc *doc = r->doc;
    uint32_t stack_members[INDEX_ON_STACK], stack_ranks[INDEX_ON_STACK];
    uint32_t *members = stack_members, *ranks = stack_ranks;
    if (schema->field_count > INDEX_ON_STACK) {
        members = arena_alloc(r->t->arena, schema->field_count * sizeof *members);
        ranks = arena_alloc(r->t->arena, schema->field_count * sizeof *ranks);
        if (members == NULL || ranks == NULL) {
            r->failed = true;
            return;
        }
    }
    struct member_names looked[INDEX_ON_STACK];
    index_members(doc, schema, place->node, members, ranks, looked, INDEX_ON_STACK);
    uint32_t k = 0;
    for (uint32_t m = doc->nodes[place->node].first_child; m != JSON_NONE && !r->failed;
         m = doc->nodes[m].next, k++) {
        struct json_str key = json_node_key(doc, m);
        const struct schema_field *alias;
        const struct schema_field *field =
            member_field(schema, looked, INDEX_ON_STACK, k, key, &alias);
        /* A key the parser recovered from text that may continue a value, or one it had to
         * guess the end of (no quotes, no closing quote), is checked only when it names a
         * field (so the pointer quotes the schema, not the document); otherwise its syntax
         * error speaks for it, and an unknown-field would be noise. */
        if (field == NULL && alias == NULL && (doc->nodes[m].flags & INVENTED_KEY))
            continue;
        struct rules_path path = rules__path_key(place->path, key.ptr, key.len);
        if (field == NULL && alias == NULL) {
            check_unknown_member(r, schema, additional, place, m, &path);
            continue;
        }
        if (field == NULL) {
            field = alias;
            rules__report_at_key(r, CODE_ALTERNATE_SPELLING, m, &path,
                                 rules__printf(r,
                                               "\"%.*s\" is a spelling seen in samples; the "
                                               "documented name is \"%s\"",
                                               (int)key.len, key.ptr, field->name));
            rules__annotate(r, m, field, field->name);
        }
        check_member(r, schema, place, members, field, m, &path);
    }
    /* In an object a syntax error cut short, what seems missing may be in the unreadable
     * part: only what is certain is reported. */
    bool certain = !cut_short(doc, place->node);
    for (uint32_t i = 0; i < schema->field_count && !r->failed && certain; i++) {
        const struct schema_field *field = &schema->fields[i];
        if (members[i] == JSON_NONE)
            check_missing(r, schema, place, members, field);
    }
    check_assertions(r, schema, place, members);
}
