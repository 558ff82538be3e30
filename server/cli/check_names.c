/* check_names: duplicate-name across the files of one run (see check_names.h). */
#include "check_names.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "json/json.h"

struct check_names_slot {
    struct json_str name;         /* in the arena; ptr NULL: empty */
    uint64_t hash;                /* its duplicate_names_hash */
    struct diag_elsewhere *first; /* where the name was first seen */
    unsigned file;                /* the last file that held it */
    bool shown; /* first->path is as reported (made so when the name is first taken again) */
};

/* What one file's visit needs. */
struct visit {
    struct check_names *names;
    const char *path; /* as named, copied into the arena once a name of the file is kept */
    bool copied;
};

/* The slot of `name` (its duplicate_names_hash `hash`): its own, or the empty one where it
 * goes. */
static struct check_names_slot *find(struct check_names_slot *slots, size_t size,
                                     struct json_str name, uint64_t hash)
{
    size_t at = (size_t)hash & (size - 1);
    while (slots[at].name.ptr != NULL && !duplicate_names_equal(slots[at].name, name))
        at = (at + 1) & (size - 1);
    return &slots[at];
}

/* Room for one more name, the table at most half full. 0, or -1 when memory ran out. */
static int make_room(struct check_names *names)
{
    if (2 * (names->used + 1) <= names->size)
        return 0;
    size_t size = names->size > 0 ? 2 * names->size : 64;
    struct check_names_slot *slots = vector_zeroed(size, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (size_t i = 0; i < names->size; i++) {
        if (names->slots[i].name.ptr != NULL)
            *find(slots, size, names->slots[i].name, names->slots[i].hash) = names->slots[i];
    }
    free(names->slots);
    names->slots = slots;
    names->size = size;
    return 0;
}

/* The position of byte `offset` of `a` in each encoding, into `out` (indexed by them): asked in
 * UTF-8 first, whose column is a count of bytes; when the bytes of its line before it are all
 * ASCII, every encoding counts them the same. Every name of every file goes through here. */
static void position_in_every_encoding(const struct analysis *a, uint32_t offset,
                                       struct text_position *out)
{
    struct text_position utf8 = line_index_position(&a->lines, offset, POSITION_UTF8);
    const char *text = a->doc.text;
    uint32_t at = offset <= a->doc.len ? offset : a->doc.len;
    bool ascii = utf8.character <= at;
    for (uint32_t i = at - (ascii ? utf8.character : 0); ascii && i < at; i++)
        ascii = (unsigned char)text[i] < 0x80;
    for (int e = POSITION_UTF16; e <= POSITION_UTF32; e++)
        out[e] = ascii || e == POSITION_UTF8
                     ? utf8
                     : line_index_position(&a->lines, offset, (enum position_encoding)e);
}

/* The place of `node` in `a`, with the file's path as named, in the arena; NULL when memory
 * ran out. */
static struct diag_elsewhere *place_of(struct visit *v, struct analysis *a, uint32_t node)
{
    struct arena *arena = &v->names->arena;
    if (!v->copied) {
        v->path = arena_strndup(arena, v->path, strlen(v->path));
        v->copied = true;
    }
    struct diag_elsewhere *place = arena_alloc(arena, sizeof *place);
    if (place == NULL || v->path == NULL)
        return NULL;
    place->path = v->path;
    const struct json_node *n = &a->doc.nodes[node];
    position_in_every_encoding(a, n->start, place->start);
    position_in_every_encoding(a, n->end, place->end);
    return place;
}

static int visit_name(void *context, struct analysis *a, uint32_t node, uint32_t index,
                      uint64_t hash)
{
    struct visit *v = context;
    struct check_names *names = v->names;
    if (make_room(names) != 0)
        return -1;
    struct json_str name = json_node_string(&a->doc, node);
    struct check_names_slot *slot = find(names->slots, names->size, name, hash);
    if (slot->name.ptr != NULL) {
        if (slot->file == names->file)
            return 0;
        slot->file = names->file;
        if (!slot->shown) { /* as every format shows a path: only for a name taken again */
            char buf[PATH_MAX];
            const char *shown = report_path(slot->first->path, buf, sizeof buf);
            slot->first->path = arena_strndup(&names->arena, shown, strlen(shown));
            slot->shown = slot->first->path != NULL;
            if (!slot->shown)
                return -1;
        }
        return duplicate_names_report_elsewhere(a, node, index, slot->first);
    }
    struct diag_elsewhere *first = place_of(v, a, node);
    char *copy = first != NULL ? arena_strndup(&names->arena, name.ptr, name.len) : NULL;
    if (copy == NULL)
        return -1;
    *slot = (struct check_names_slot){{copy, name.len}, hash, first, names->file, false};
    names->used++;
    return 0;
}

void check_names_add(struct check_names *names, struct reporter *reporter, const char *path,
                     struct analysis *a, const struct check_target *target)
{
    if (target->schema != NULL || a->doc.error_count > 0)
        return; /* a kind file; a document whose names cannot be trusted */
    names->file++;
    struct visit v = {.names = names, .path = path};
    uint32_t first = a->diags.count;
    struct analysis_options options = {.settings = target->settings, .path = target->path};
    if (duplicate_names_each(a, visit_name, &v) != 0)
        reporter->failed = true; /* out of memory: the report is not whole */
    analysis_settle(a, &options, first);
}

void check_names_free(struct check_names *names)
{
    free(names->slots);
    arena_free(&names->arena);
    *names = (struct check_names){0};
}
