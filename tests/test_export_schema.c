/* test_export_schema: export_json_schema is a function of the registry it is given. A kind that
 * exists only in this test (a project's own kind file) gets its file, its index entry and
 * its rules; a type identifier that cannot name a file is refused before anything is written;
 * a directory that cannot be made is an error naming it. What the files say is checked against
 * srcls's verdicts with ajv by tests/lsp/json_schema.test.js. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_harness.h"
#include "export_schema.h"
#include "schema/schema.h"

/* A kind of its own, whose identifier is `type`. */
static const char kind_format[] =
    "{\"kind\": 26, \"title\": \"Message queue\", \"types\": [\"%s\"],\n"
    " \"description\": \"Topics of a message broker.\",\n"
    " \"fields\": {\n"
    "  \"brokerUrl\": {\"type\": \"string\", \"description\": \"Where.\", \"required\": true},\n"
    "  \"authMode\": {\"type\": \"string\", \"description\": \"How.\", \"default\": \"NONE\",\n"
    "               \"enum\": [{\"value\": \"NONE\", \"description\": \"No sign-in.\"},\n"
    "                        {\"value\": \"TOKEN\", \"description\": \"A bearer token.\"}]},\n"
    "  \"token\": {\"type\": \"string\", \"description\": \"The token.\", \"secret\": true,\n"
    "            \"required\": {\"field\": \"authMode\", \"in\": [\"TOKEN\"]}}}}\n";

/* The built-in schema and the kind above with identifier `type`; 0 when it loads. */
static int load_with_kind(struct schema_registry *registry, const char *type)
{
    static char text[2048];
    snprintf(text, sizeof text, kind_format, type);
    /* as a project's own kind file (srcls.json "schemas") */
    struct schema_file file = {"team/message-queue.json", text, strlen(text), true};
    struct schema_problems problems;
    int status = schema_registry_load_custom(registry, &file, 1, &problems);
    if (status == 0 && problems.count > 0) {
        print_error("the schema with a kind of its own does not load: %s\n",
                    problems.items[0].text);
        schema_registry_free(registry);
        status = -1;
    }
    schema_problems_free(&problems);
    return status;
}

/* The whole of `dir`/`name`, or NULL. Owned by the caller. */
static char *read_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return read_all(path);
}

/* Removes `dir` and the files in it. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e = d ? readdir(d) : NULL; e != NULL; e = readdir(d)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(dir);
}

static void test_a_kind_of_its_own_is_exported_like_the_built_in_ones(void **state)
{
    (void)state;
    struct schema_registry registry;
    assert_int_equal(load_with_kind(&registry, "MESSAGE_QUEUE"), 0);
    char dir[] = "/tmp/srcls-export-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(export_json_schema(&registry, dir, stderr), 0);

    char *kind = read_file(dir, "MESSAGE_QUEUE.schema.json");
    assert_non_null(kind);
    assert_non_null(strstr(kind, "\"$id\": \"MESSAGE_QUEUE.schema.json\""));
    assert_non_null(strstr(kind, "\"title\": \"Message queue (MESSAGE_QUEUE)\""));
    assert_non_null(strstr(kind, "\"const\": \"MESSAGE_QUEUE\""));
    assert_non_null(strstr(kind, "\"description\": \"A bearer token.\"")); /* enum described */
    assert_non_null(
        strstr(kind, "\"pattern\": \"^(?:\\\\$SERVICE_EXISTING_VALUE\\\\$|")); /* secret */
    assert_non_null(strstr(kind, "\"then\"")); /* token required with TOKEN */
    assert_non_null(strstr(kind, "\"required\": [\n    \"config\"\n  ]")); /* brokerUrl needs one */
    char *index = read_file(dir, "index.json");
    assert_non_null(index);
    assert_non_null(strstr(index, "\"MESSAGE_QUEUE\": \"MESSAGE_QUEUE.schema.json\""));
    char *any = read_file(dir, "source.schema.json");
    assert_non_null(any);
    assert_non_null(strstr(any, "\"$ref\": \"MESSAGE_QUEUE.schema.json\""));
    free(kind);
    free(index);
    free(any);
    remove_dir(dir);
    schema_registry_free(&registry);
}

/* `type` is refused with a message naming it, and nothing is written. */
static void assert_refused(const char *type)
{
    struct schema_registry registry;
    assert_int_equal(load_with_kind(&registry, type), 0);
    char dir[] = "/tmp/srcls-export-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64];
    snprintf(sub, sizeof sub, "%s/out", dir);
    char *said = NULL;
    size_t said_len = 0;
    FILE *err = open_memstream(&said, &said_len);
    assert_non_null(err);
    assert_int_equal(export_json_schema(&registry, sub, err), 2);
    fclose(err);
    assert_non_null(strstr(said, type));
    assert_non_null(strstr(said, "cannot name a file"));
    assert_int_not_equal(access(sub, F_OK), 0); /* not even the directory */
    free(said);
    rmdir(dir);
    schema_registry_free(&registry);
}

static void test_an_identifier_that_cannot_name_a_file_is_refused(void **state)
{
    (void)state;
    assert_refused("job"); /* would be job.schema.json */
    assert_refused("Bulk");
    assert_refused("a/b");
    assert_refused("../up");
    assert_refused(".hidden");
}

static void test_a_directory_that_cannot_be_made_is_named(void **state)
{
    (void)state;
    struct schema_registry registry;
    char error[512];
    assert_int_equal(schema_registry_load_embedded(&registry, error, sizeof error), 0);
    char *said = NULL;
    size_t said_len = 0;
    FILE *err = open_memstream(&said, &said_len);
    assert_non_null(err);
    assert_int_equal(export_json_schema(&registry, "/dev/null/schemas", err), 2);
    fclose(err);
    assert_non_null(strstr(said, "cannot create the directory /dev/null/schemas"));
    free(said);
    schema_registry_free(&registry);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_kind_of_its_own_is_exported_like_the_built_in_ones),
        cmocka_unit_test(test_an_identifier_that_cannot_name_a_file_is_refused),
        cmocka_unit_test(test_a_directory_that_cannot_be_made_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
