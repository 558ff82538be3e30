/* options_docs: what is printed from the option table (options.c): --help's lists, and what
 * --generate-docs writes into the man page, the bash completion and docs/cli.md. */
#include "options.h"

#include <string.h>

#include "command.h"
#include "domain/domain.h"
#include "help.h"
#include "reference.h"
#include "report.h"

/* The `i`th word of `row`'s value set, or NULL past the last (`buf` holds a VALUES_WORDS word). */
static const char *value_word(const struct cli_option *row, size_t i, char *buf, size_t size)
{
    switch (row->values) {
    case VALUES_WORDS:
        for (const char *at = row->words; *at != '\0';) {
            size_t len = strcspn(at, " ");
            if (i-- == 0) {
                snprintf(buf, size, "%.*s", (int)len, at);
                return buf;
            }
            at += len + (at[len] == ' ');
        }
        return NULL;
    case VALUES_FORMATS: return report_format_name(i);
    case VALUES_SEVERITIES:
        return i <= DIAG_HINT - DIAG_ERROR
                   ? diag_severity_name((enum diag_severity)(DIAG_ERROR + (int)i))
                   : NULL;
    case VALUES_DOCS: return command_docs_name(i);
    default: return NULL;
    }
}

const char *options_value_words(const struct cli_option *row, char *out, size_t size)
{
    char word[64];
    size_t n = 0, len = 0;
    while (value_word(row, n, word, sizeof word) != NULL)
        n++;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        const char *separator = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int wrote = snprintf(out + len, size - len, "%s%s", separator,
                             value_word(row, i, word, sizeof word));
        len += wrote < 0 ? size : (size_t)wrote;
    }
    return out;
}

const struct cli_option *options_find(const char *name)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    for (size_t i = 0; i < count; i++) {
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    }
    return NULL;
}

/* `text`'s lines, the first after `column - at` spaces (`at`: where the label ended; a label
 * that leaves fewer than 2 before `column` and `wrap` puts the text on the next line), the
 * others indented to `column`. */
static void print_help_lines(FILE *out, const char *text, int at, int column, bool wrap)
{
    if (wrap && at + 2 > column) {
        fputc('\n', out);
        at = 0;
    }
    fprintf(out, "%*s", column - at < 2 ? 2 : column - at, "");
    for (const char *c = text; *c != '\0'; c++) {
        fputc(*c, out);
        if (*c == '\n')
            fprintf(out, "%*s", column, "");
    }
    fputc('\n', out);
}

/* "--NAME", then " ARG" or, when the argument is optional, "[=ARG]" (`argument`: its name). */
static int print_label(FILE *out, const struct cli_option *o, const char *argument)
{
    if (argument == NULL)
        return fprintf(out, "--%s", o->name);
    bool optional = o->argument_kind == OPTION_OPTIONAL;
    return fprintf(out, "--%s%s%s%s", o->name, optional ? "[=" : " ", argument,
                   optional ? "]" : "");
}

void options_print_help(FILE *out)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    fputs(help_title, out);
    for (size_t i = 0; i < count; i++) { /* the actions: their usage, text at column 35 */
        const struct cli_option *o = &table[i];
        if (o->section != OPTION_IS_ACTION || o->help == NULL)
            continue;
        int at = o->synopsis != NULL ? fprintf(out, "  srcls %s", o->synopsis)
                                     : fprintf(out, "  srcls ") + print_label(out, o, o->argument);
        print_help_lines(out, o->help, at, 35, false);
    }
    fputs("\nOptions for --check (an error without --check):\n", out);
    for (size_t i = 0; i < count; i++) { /* --NAME ARG, -L: text at column 20 */
        const struct cli_option *o = &table[i];
        if (o->section != OPTION_OF_CHECK || o->help == NULL)
            continue;
        const char *argument = o->help_argument ? o->help_argument : o->argument;
        int at = fprintf(out, "  ") + print_label(out, o, argument);
        if (o->letter != 0)
            at += fprintf(out, ", -%c", o->letter);
        print_help_lines(out, o->help, at, 20, true);
    }
    fputs(help_status, out);
}

/* `text` for roff: '-' as "\-" (a minus sign: what a reader types). */
static void roff_dashes(FILE *out, const char *text)
{
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '-')
            fputs("\\-", out);
        else
            fputc(*c, out);
    }
}

/* The man page's .TP line of `o`: --NAME in bold, its argument in lower case in italics (in
 * brackets when optional); beside it its short form, or its alternative when that has no text of
 * its own. */
static void print_man_label(FILE *out, const struct cli_option *o)
{
    const struct cli_option *beside = o->alternative ? options_find(o->alternative) : NULL;
    bool optional = o->argument_kind == OPTION_OPTIONAL;
    bool pair = o->letter != 0 || (beside != NULL && beside->man == NULL);
    fputs(o->argument && !optional ? ".TP\n.BI \\-\\-"
          : pair && !o->argument   ? ".TP\n.BR \\-\\-"
                                   : ".TP\n.B \\-\\-",
          out);
    roff_dashes(out, o->name);
    if (o->argument != NULL) {
        fputs(optional ? "\\fR[=\\fI" : " \" ", out);
        for (const char *a = o->argument; *a != '\0'; a++)
            fputc(*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a, out);
        fputs(optional ? "\\fR]" : "\"", out);
    } else if (o->letter != 0) {
        fprintf(out, " \", \" \\-%c", o->letter);
    } else if (pair) {
        fputs(" \", \" \\-\\-", out);
        roff_dashes(out, beside->name);
    }
    fputc('\n', out);
}

void options_docs_man(FILE *out)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    for (int section = OPTION_OF_CHECK; section >= OPTION_IS_ACTION; section--) {
        for (size_t i = 0; i < count; i++) {
            const struct cli_option *o = &table[i];
            if ((int)o->section != section || o->man == NULL)
                continue;
            print_man_label(out, o);
            fprintf(out, "%s\n", o->man);
        }
    }
}

/* The codes, then each group once (in the table's order), space-separated. */
static void print_codes_and_groups(FILE *out)
{
    for (int code = 0; code < CODE_COUNT; code++)
        fprintf(out, "%s%s", code > 0 ? " " : "", code_name((enum diag_code)code));
    for (int code = 0; code < CODE_COUNT; code++) {
        const char *group = code_info((enum diag_code)code)->group;
        bool first = group != NULL;
        for (int before = 0; first && before < code; before++)
            first = !code_in_group((enum diag_code)before, group);
        if (first)
            fprintf(out, " %s", group);
    }
}

/* The words of `row`'s value set, space-separated. */
static void print_words(FILE *out, const struct cli_option *row)
{
    char word[64];
    if (row->values == VALUES_CODE) {
        print_codes_and_groups(out);
        return;
    }
    for (size_t i = 0; value_word(row, i, word, sizeof word) != NULL; i++)
        fprintf(out, "%s%s", i > 0 ? " " : "", value_word(row, i, word, sizeof word));
}

/* The body of `row`'s arm of the completion's `case "$prev"`. */
static void print_completion_arm(FILE *out, const struct cli_option *row)
{
    switch (row->values) {
    case VALUES_FORMATS:
        fputs("\n            local formats=\"", out);
        print_words(out, row);
        fputs("\"\n", out);
        if (row->also_action != NULL) /* the action takes fewer */
            fprintf(out,
                    "            [[ \" ${COMP_WORDS[*]} \" == *\" --%s \"* ]] && formats=\"%s\"\n",
                    row->also_action, REFERENCE_LIST_KINDS_FORMATS);
        fputs("            COMPREPLY=($(compgen -W \"$formats\" -- \"$cur\"))\n"
              "            return ;;\n",
              out);
        return;
    case VALUES_CODE_LIST: /* after a comma: complete the last one, keep what is before it */
        fputs("\n            local codes=\"", out);
        print_codes_and_groups(out);
        fputs("\"\n            local before=\"\"\n"
              "            [[ \"$cur\" == *,* ]] && before=\"${cur%,*},\"\n"
              "            COMPREPLY=($(compgen -P \"$before\" -W \"$codes\" -- \"${cur##*,}\"))\n"
              "            return ;;\n",
              out);
        return;
    case VALUES_NONE: fputs(" return ;;\n", out); return;
    case VALUES_GIT_REF:
        fputs(" COMPREPLY=($(compgen -W \"HEAD origin/main $(git for-each-ref "
              "--format='%(refname:short)' 2>/dev/null)\" -- \"$cur\")); return ;;\n",
              out);
        return;
    case VALUES_FILE: fputs(" COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", out); return;
    case VALUES_DIR: fputs(" COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", out); return;
    default:
        fputs(" COMPREPLY=($(compgen -W \"", out);
        print_words(out, row);
        fputs("\" -- \"$cur\")); return ;;\n", out);
        return;
    }
}

static bool same_values(const struct cli_option *a, const struct cli_option *b)
{
    return a->values == b->values && (a->values != VALUES_WORDS || strcmp(a->words, b->words) == 0);
}

void options_docs_completion(FILE *out)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    fputs("    case \"$prev\" in\n", out);
    /* one arm per value set, its options joined; an optional argument is never the next word */
    for (size_t i = 0; i < count; i++) {
        bool earlier = false;
        for (size_t j = 0; j < i && !earlier; j++)
            earlier =
                table[j].argument_kind == OPTION_REQUIRED && same_values(&table[i], &table[j]);
        if (table[i].argument_kind != OPTION_REQUIRED || earlier)
            continue;
        fprintf(out, "        --%s", table[i].name);
        for (size_t j = i + 1; j < count; j++) {
            if (table[j].argument_kind == OPTION_REQUIRED && same_values(&table[i], &table[j]))
                fprintf(out, "|--%s", table[j].name);
        }
        fputc(')', out);
        print_completion_arm(out, &table[i]);
    }
    fputs("    esac\n    local options=\"", out);
    for (size_t i = 0; i < count; i++)
        fprintf(out, "%s--%s", i > 0 ? " " : "", table[i].name);
    fputs("\"\n", out);
}

/* Appends to `buf` (`size` bytes, NUL-terminated) what `format` makes of `arg`. */
static void append(char *buf, size_t size, const char *format, const char *arg)
{
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, format, arg);
}

/* One [--NAME ARG] of the synopsis into `buf`: a value set of words written out, an alternative
 * beside it ([--a|--b]), "..." after an option given many times. */
static void synopsis_item(const struct cli_option *o, char *buf, size_t size)
{
    snprintf(buf, size, "[");
    for (const struct cli_option *at = o; at != NULL;
         at = at == o && o->alternative ? options_find(o->alternative) : NULL) {
        append(buf, size, at == o ? "--%s" : "|--%s", at->name);
        char word[64];
        const char *w;
        bool words = at->values == VALUES_WORDS || at->values == VALUES_FORMATS;
        for (size_t i = 0;
             at->argument != NULL && words && (w = value_word(at, i, word, sizeof word)) != NULL;
             i++)
            append(buf, size, i > 0 ? "|%s" : " %s", w);
        if (at->argument != NULL && !words)
            append(buf, size, at->argument_kind == OPTION_OPTIONAL ? "[=%s]" : " %s", at->argument);
    }
    append(buf, size, "]%s", o->effect == OPTION_APPENDS ? "..." : "");
}

/* Whether `row` is another row's alternative (written with that one). */
static bool is_alternative(const struct cli_option *table, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++) {
        if (table[k].alternative != NULL && strcmp(table[k].alternative, name) == 0)
            return true;
    }
    return false;
}

/* The options of --check, each [--NAME ARG] after `column` columns, the lines kept under 96;
 * returns the column it ends at. */
static int print_check_options(FILE *out, int column)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    for (size_t j = 0; j < count; j++) {
        char item[256];
        if (table[j].section != OPTION_OF_CHECK || is_alternative(table, count, table[j].name))
            continue;
        synopsis_item(&table[j], item, sizeof item);
        if (column + 1 + (int)strlen(item) > 96)
            column = fprintf(out, "\n             ");
        column += fprintf(out, " %s", item);
    }
    return column;
}

void options_docs_synopsis(FILE *out)
{
    size_t count;
    const struct cli_option *table = cli_option_table(&count);
    fputs("```\n", out);
    for (size_t i = 0; i < count; i++) { /* each action: its synopsis, [OPTIONS] written out */
        const struct cli_option *o = &table[i];
        const char *options = o->synopsis ? strstr(o->synopsis, " [OPTIONS]") : NULL;
        if (o->section != OPTION_IS_ACTION)
            continue;
        int column = fprintf(out, "srcls ");
        if (options != NULL) {
            column += fprintf(out, "%.*s", (int)(options - o->synopsis), o->synopsis);
            column = print_check_options(out, column);
            const char *rest = options + strlen(" [OPTIONS]");
            fputs(column + (int)strlen(rest) > 96 ? "\n             " : "", out);
            fputs(rest, out);
        } else if (o->synopsis != NULL) {
            fputs(o->synopsis, out);
        } else {
            print_label(out, o, o->argument);
        }
        fputc('\n', out);
    }
    fputs("```\n", out);
}

void options_docs_formats(FILE *out)
{
    for (size_t i = 0; report_format_name(i) != NULL; i++)
        fprintf(out, "%s\n", report_format_name(i));
}
