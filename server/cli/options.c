/* options: the table of srcls's command-line options (options.h), in --help's order: each row
 * says what getopt_long is told, where main.c stores the option, what the completion offers, and
 * the texts of --help and of the man page. Adding an option is adding its row here; the lists of
 * --help, docs/man/srcls.1, editors/shell/srcls.bash and docs/cli.md follow
 * (python3 tools/generated_regions.py build/server/srcls .). */
#include "options.h"

#include <stddef.h>

static const struct cli_option table[] = {
    {.name = "stdio",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, stdio),
     .synopsis = "[--stdio]",
     .help = "Run the language server on stdin/stdout (LSP 3.17);\n"
             "see docs/editors.md. --stdio, which editors pass,\n"
             "asks for the server explicitly: it cannot be\n"
             "combined with --check, a PATH or an action below.",
     .man = "Run the language server (what editors pass). Its setting\n.B reviewBase\n"
            "(a git revision) shows the\n.B risky\\-change\nfindings of\n.B \\-\\-base\nin the "
            "editor."},
    {.name = "check",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, check),
     .synopsis = "--check [OPTIONS] PATH...",
     .help = "Lint files and directories. Directories are searched\n"
             "for *.json files that are source or job documents;\n"
             "a file named explicitly is always checked. '-' reads\n"
             "standard input."},
    {.name = "list-kinds",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_ACTION,
     .synopsis = "--list-kinds [--format json]",
     .help = "Every kind: number, type identifiers, title (as\n"
             "JSON with --format json, for scripts).",
     .man = "Every kind: its number, type identifiers and title."},
    {.name = "explain",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_ACTION,
     .argument_kind = OPTION_REQUIRED,
     .argument = "CODE",
     .values = VALUES_CODE,
     .help = "What a diagnostic code means, with an example and\n"
             "the fix (codes: docs/rules.md).",
     .man = "What a diagnostic code means, with an example and the fix."},
    {.name = "export-json-schema",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_ACTION,
     .argument_kind = OPTION_REQUIRED,
     .argument = "DIR",
     .values = VALUES_DIR,
     .help = "Write JSON Schema files (draft 2020-12) of every\n"
             "kind, any source, bulk files and jobs into DIR\n"
             "(created when missing), with index.json.",
     .man = "Write the schema as JSON Schema (draft 2020-12) files into\n.I dir\n"
            "(created with its parents when missing) for other validators and editors:\n"
            ".IB TYPE .schema.json\nfor each type identifier (a whole source of that kind),\n"
            ".I source.schema.json\n(a source of any kind, or an array of them),\n"
            ".IR bulk.schema.json ,\n.I job.schema.json\nand\n.I index.json\n"
            "(each type identifier and its file). Each file says in its\n.B $comment\n"
            "what srcls checks that JSON Schema cannot. It takes no other option."},
    {.name = "generate-docs",
     .section = OPTION_IS_ACTION,
     .effect = OPTION_ACTION,
     .argument_kind = OPTION_REQUIRED,
     .argument = "WHAT",
     .values = VALUES_DOCS,
     .help = "Print a generated part of the docs: rules, kinds,\n"
             "man-codes, man-options, completion, cli-synopsis or\n"
             "formats (for contributors; docs/cli.md).",
     .man =
         "Print a part of the documentation generated from srcls's own tables, for contributors:\n"
         ".BR rules \", \" kinds \", \" man\\-codes \", \" man\\-options \", \" completion \", \"\n"
         ".BR cli\\-synopsis \" or \" formats ."},
    {.name = "version",
     .letter = 'V',
     .section = OPTION_IS_ACTION,
     .effect = OPTION_PRINTS_VERSION,
     .help = "Print the version.",
     .man = "Print the version."},
    {.name = "help",
     .letter = 'h',
     .section = OPTION_IS_ACTION,
     .effect = OPTION_PRINTS_HELP,
     .help = "Print this help.",
     .man = "Print the help."},
    {.name = "format",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, format),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FORMAT",
     .values = VALUES_FORMATS,
     .also_action = "list-kinds",
     .help = "text (default; colored on a terminal unless NO_COLOR is set, and\n"
             "wherever FORCE_COLOR is),\n"
             "json (one object), sarif (SARIF 2.1.0 for code scanning) or\n"
             "github (GitHub Actions annotations) or gitlab (GitLab Code\n"
             "Quality). See docs/cli.md.",
     .man = ".B text\n(default; colored on a terminal unless\n.B NO_COLOR\nis set, and wherever\n"
            ".B FORCE_COLOR\nis),\n.B json\n(one object),\n.B sarif\n(SARIF 2.1.0 for code "
            "scanning),\n"
            ".B github\n(GitHub Actions annotations) or\n.B gitlab\n(GitLab Code Quality). With\n"
            ".BR \\-\\-list\\-kinds :\n.B text\nor\n.BR json ."},
    {.name = "color",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, color),
     .argument_kind = OPTION_REQUIRED,
     .argument = "WHEN",
     .values = VALUES_WORDS,
     .words = "auto always never",
     .help = "auto (default), always or never.",
     .man = ".BR auto \" (default), \" always \" or \" never ."},
    {.name = "fix",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, fix),
     .alternative = "diff",
     .help = "Apply the safe quick fixes in place (atomically; never to a file\n"
             "with syntax errors), then report what is left. With '-': the\n"
             "fixed document on stdout, the report on stderr.",
     .man = "Apply the safe quick fixes in place, atomically and in rounds until none is left "
            "(never to a\n"
            "file with syntax errors), then report what is left. For\n.B \\-\n"
            "(standard input) the fixed document is printed on standard output and the report goes "
            "to\n"
            "standard error."},
    {.name = "diff",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, diff),
     .help = "Print what --fix would change as a unified diff, writing nothing\n"
             "(exit 1 when it would change something; secrets masked).",
     .man =
         "Print what\n.B \\-\\-fix\n"
         "would change, as a unified diff, and write nothing; exit status 1 when it would change\n"
         "something. Values that could be secrets show as\n.BR *** ."},
    {.name = "unsafe-fixes",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, unsafe_fixes),
     .help = "With --fix or --diff: apply the unsafe fixes too (encoding a\n"
             "bare secret as data:,..., which keeps it in the file).",
     .man =
         "With\n.B \\-\\-fix\nor\n.BR \\-\\-diff :\n"
         "apply the unsafe fixes too: encoding a bare secret as\n.BR data:,... ,\n"
         "which keeps the secret in the file. Without it they are left out, and the last line on\n"
         "standard error says how many."},
    {.name = "jobs",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, jobs),
     .argument_kind = OPTION_REQUIRED,
     .argument = "N",
     .help = "Check N files at a time (default: the number of online CPUs,\n"
             "at most 8). The output is the same for every N.",
     .man =
         "Check\n.I n\n"
         "files at a time (default: the online CPUs, at most 8). The output is the same for every\n"
         ".IR n ."},
    {.name = "shard",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, shard),
     .argument_kind = OPTION_REQUIRED,
     .argument = "I/N",
     .help = "Check only the I-th of N shards of the files (1 <= I <= N), split by\n"
             "a hash of each path as shown: the same split on every machine.",
     .man = "Check only the\n.IR i -th\nof\n.I n\n"
            "shards of the files, split by a hash of each file's path as shown (FNV-1a, mixed): "
            "the same "
            "split on every machine and every run, so that\n.I n\n"
            "CI jobs running\n.BI \"--shard \" i /n\n"
            "with the same paths check each file once. A shard reports what concerns its files "
            "(srcls.json and baseline files under\n.B \\-\\-base\n"
            "by their own path); a duplicate source name in two files of different shards is not "
            "seen. Not with\n.BR \\-\\-write\\-baseline ."},
    {.name = "quiet",
     .letter = 'q',
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, quiet),
     .help = "Only the diagnostics: no summary line (text and github).",
     .man = "Only the diagnostics: no summary line (text and github)."},
    {.name = "statistics",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, statistics),
     .help = "How many of each code, most first, instead of each diagnostic\n"
             "(text).",
     .man = "How many of each code, most first, instead of each diagnostic (text)."},
    {.name = "fail-on",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, fail_on),
     .argument_kind = OPTION_REQUIRED,
     .argument = "SEVERITY",
     .help_argument = "SEV",
     .values = VALUES_SEVERITIES,
     .help = "The least severe diagnostic that makes the exit status 1: error\n"
             "(default), warning, information or hint.",
     .man = "The least severe diagnostic that makes the exit status 1:\n.B error\n(default),\n"
            ".BR warning \", \" information \" or \" hint ."},
    {.name = "exit-zero",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, exit_zero),
     .help = "Exit 0 whatever the diagnostics (2 still means a path or a file\n"
             "could not be read or written).",
     .man = "Exit 0 whatever the diagnostics (2 still means a path or a file could not be read or "
            "written)."},
    {.name = "output-file",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, output_file),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FILE",
     .help_argument = "F",
     .values = VALUES_FILE,
     .help = "Write the report to F instead of standard output.",
     .man = "Write the report to\n.I file\ninstead of standard output."},
    {.name = "stdin-filename",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, stdin_name),
     .argument_kind = OPTION_REQUIRED,
     .argument = "PATH",
     .values = VALUES_FILE,
     .help = "Standard input ('-') stands for the file PATH: its name in the\n"
             "report, and the srcls.json that applies to it.",
     .man = "Standard input\n.RB ( \\- )\nstands for the file\n.IR path :\n"
            "its name in the report, and the\n.I srcls.json\nthat applies to it."},
    {.name = "show-source",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_INT,
     .field = offsetof(struct cli_options, show_source),
     .set = 1,
     .alternative = "no-show-source",
     .help = "A code frame under each diagnostic: the line, carets under the\n"
             "range, values that could be secrets masked (the default on a\n"
             "terminal); --no-show-source: one line each.",
     .man = "A code frame under each diagnostic (the line, carets under the range; every value "
            "that could\n"
            "be a secret masked), or one line each. The default: frames on a terminal."},
    {.name = "no-show-source",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_INT,
     .field = offsetof(struct cli_options, show_source)},
    {.name = "exclude",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_APPENDS,
     .field = offsetof(struct cli_options, excludes),
     .argument_kind = OPTION_REQUIRED,
     .argument = "GLOB",
     .values = VALUES_FILE,
     .help = "Skip what a directory scan meets that matches GLOB: its name, or\n"
             "its path when GLOB holds a '/' ('*', '?', '**' across directories;\n"
             "repeatable; named paths are checked).",
     .man = "Skip what a directory scan meets that matches\n.IR glob :\n"
            "its name, or its path (without a leading\n.IR ./ )\nwhen\n.I glob\n"
            "holds a slash. In\n.IR glob ,\n"
            "\\fB*\\fR and \\fB?\\fR stay within a name, \\fB**\\fR spans directories, and a "
            "backslash makes the next character plain (the globs of srcls.json). Repeatable. A "
            "path named on the command line is checked."},
    {.name = "no-respect-gitignore",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, no_gitignore),
     .help = "Scan what git ignores too (by default a scan in a git work tree\n"
             "skips it: .gitignore, .git/info/exclude).",
     .man = "Scan what git ignores too. By default a directory scan in a git work tree skips what "
            "git\n"
            "ignores (\\fI.gitignore\\fR, \\fI.git/info/exclude\\fR, the global excludes file), as "
            "git itself\n"
            "lists it; a path named on the command line is always checked."},
    {.name = "base",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, base),
     .argument_kind = OPTION_REQUIRED,
     .argument = "REF",
     .values = VALUES_GIT_REF,
     .help = "In a git work tree: also report, as risky-change, what each\n"
             "document's change since REF does that a reviewer must see.",
     .man =
         "Review a change: in a git work tree (run from inside it), compare each document that "
         "differs\n"
         "from its version at\n.I ref\n(a commit, branch or tag, e.g.\n.BR origin/main )\n"
         "and report, as\n.BR risky\\-change ,\n"
         "what the change does that a reviewer must see: a posture finding that fires now and did "
         "not\n"
         "at\n.I ref\n(a source of a bulk file known by its name), a changed\n.B type\nor\n"
         ".BR name ,\na field the schema marks\n.B removalWidens\nremoved (kind 3\n"
         ".BR whitelistedBuckets ),\n"
         "a source removed from a bulk file, a document deleted (reported on its path, with no "
         "place).\n"
         "Standard input is compared with the version at\n.I ref\nof the path\n"
         ".B \\-\\-stdin\\-filename\nnames; without it, it is not compared (stderr says so).\n"
         "Unchanged documents cost nothing more; the versions are\nread from git with one\n"
         ".B git cat-file --batch\nper run. A\n.I ref\n"
         "that does not exist (in a shallow clone too), a directory that is no work tree, or git\n"
         "missing: a message and exit status 2."},
    {.name = "baseline",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, baseline),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FILE",
     .values = VALUES_FILE,
     .alternative = "no-baseline",
     .help = "Report only the findings the baseline FILE does not hold, and how\n"
             "many it holds that are fixed (srcls.json \"baseline\" names one too).",
     .man =
         "Report only the findings that the baseline\n.I file\n(written by\n"
         ".BR \\-\\-write\\-baseline )\n"
         "does not hold, and say how many it holds and how many of those are fixed. Each entry of "
         "the\n"
         "file matches one finding by the file's path (relative to the baseline), the code, the "
         "JSON\n"
         "Pointer (in a bulk file the source's\n.B name\n"
         "and the pointer below it) and a hash of the value there, never by line: edits "
         "elsewhere,\n"
         "reformatting and moving a source within a bulk array keep a finding matched; a changed "
         "value\n"
         "does not. Only new findings count for the exit status. JSON output marks each "
         "diagnostic\n"
         ".BR baselined ;\nSARIF results carry\n.B baselineState\n.RB ( new ,\n.BR unchanged ,\n"
         "and\n.B absent\nfor fixed entries). Without this option, the\n.B baseline\n"
         "of each file's\n.I srcls.json\napplies. A baseline that cannot be read: exit status 2."},
    {.name = "write-baseline",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, write_baseline),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FILE",
     .values = VALUES_FILE,
     .help = "Record every finding in FILE (keyed by path, code, pointer and a\n"
             "hash of the value, never by line): they are then not reported.\n"
             "Its entries of files or codes not checked in this run are kept;\n"
             "syntax errors are never recorded.",
     .man =
         "Record every finding of the run in\n.I file\n"
         "(sorted, one a line; the same bytes for the same findings, whatever\n.BR \\-\\-jobs ).\n"
         "A value that could hold a secret is not even hashed. The run then reports nothing new "
         "(exit\n"
         "status 0); with\n.B \\-\\-baseline\n"
         "as well, it reports against that one. Not written when a path could not be read. The\n"
         "entries that\n.I file\n"
         "already holds for files not checked in this run are kept (unless the file no longer\n"
         "exists); those of the files checked are replaced by this run's, but the entries of codes "
         "the\n"
         "run did not check (not selected, ignored,\n.B off\nin\n.IR srcls.json ,\n"
         "or silenced by an\n.B ignore\n"
         "entry) are kept; under a baseline such entries are neither matched nor fixed. Findings "
         "that\n"
         "mean a document was not checked\n.RB ( json\\-syntax ,\n.BR unknown\\-document ,\n"
         ".BR unknown\\-kind ,\n"
         "and every finding of a document with a syntax error) are never recorded (stderr says "
         "how\n"
         "many) and always reported. A finding of a file without entries may take the entry of a\n"
         "deleted file with the same code, pointer and hash: a moved file keeps its findings "
         "baselined."},
    {.name = "no-baseline",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_SETS_TRUE,
     .field = offsetof(struct cli_options, no_baseline),
     .help = "Do not read the baseline srcls.json names.",
     .man = "Do not read the\n.B baseline\na\n.I srcls.json\nnames. With\n.BR \\-\\-baseline :\n"
            "a usage error (exit status 2)."},
    {.name = "select",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, select),
     .argument_kind = OPTION_REQUIRED,
     .argument = "CODES",
     .values = VALUES_CODE_LIST,
     .help = "Report only these codes or groups (security), over srcls.json.",
     .man = "Report only these codes (comma-separated), over\n.IR srcls.json .\n"
            "A group name stands for its codes:\n.B security\nfor the posture codes."},
    {.name = "ignore",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, ignore),
     .argument_kind = OPTION_REQUIRED,
     .argument = "CODES",
     .values = VALUES_CODE_LIST,
     .help = "Report none of these codes or groups, over srcls.json.",
     .man = "Report none of these codes (or groups), over\n.IR srcls.json ."},
    {.name = "env",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_APPENDS,
     .field = offsetof(struct cli_options, envs),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FILE",
     .values = VALUES_FILE,
     .help = "Check each template (srcls.json \"placeholders\") as rendered with\n"
             "FILE's variables (dotenv, repeatable); values are never printed.",
     .man =
         "Check each template as rendered: the placeholders of\n.I srcls.json\n.B placeholders\n"
         "filled in with the variables of the dotenv\n.I file\n"
         "(repeatable; a later file wins), every finding placed on the template's text, and a\n"
         "placeholder whose variable no file sets reported as\n.BR unset\\-variable .\n"
         "The dotenv subset: one\n.IB KEY = VALUE\na line, an optional\n.B export\n"
         "before it, blank lines and\n.B #\n"
         "comments, values unquoted, in single quotes or in double quotes (with\n"
         ".B \\en \\et \\e\" \\e\\e\n"
         "escapes), one line each. A file that cannot be read, sets no variable or has a line of\n"
         "another shape: a message naming the line (never a value) and exit status 2. The values "
         "are\n"
         "never printed. Takes no\n.B \\-\\-fix\nor\n.BR \\-\\-diff ."},
    {.name = "config",
     .section = OPTION_OF_CHECK,
     .effect = OPTION_TAKES,
     .field = offsetof(struct cli_options, config_path),
     .argument_kind = OPTION_REQUIRED,
     .argument = "FILE",
     .values = VALUES_FILE,
     .help = "Project configuration for every file (default: for each file,\n"
             "the nearest srcls.json upwards): {\"rules\": {\"CODE\": \"error|warning|\n"
             "information|hint|off\"}, \"types\": {\"MY_ID\": \"KIND_TYPE\"}}.",
     .man = "One project configuration for every file, instead of each file's nearest\n.IR "
            "srcls.json ."},
};

_Static_assert(sizeof table / sizeof *table <= CLI_OPTIONS_MAX, "struct cli_options: of_check");

const struct cli_option *cli_option_table(size_t *count)
{
    *count = sizeof table / sizeof *table;
    return table;
}
