/* test_cli_custom_kinds: a team's own kinds through srcls.json's "schemas", end to end with the
 * real binary — a new kind and an extension of a built-in one check the documents under that
 * srcls.json; a broken kind file is reported where it is wrong, left out, and takes nothing else
 * down; kind files met by a scan are linted as kind files, not as documents; --list-kinds shows
 * the project's kinds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_harness.h"

static const char queue_kind[] =
    "{\n"
    "  \"title\": \"Message queue\",\n"
    "  \"types\": [\"MESSAGE_QUEUE\"],\n"
    "  \"fields\": {\n"
    "    \"brokerUrl\": {\"type\": \"string\", \"description\": \"Where.\", \"required\": true},\n"
    "    \"topic\": {\"type\": \"string\", \"description\": \"What.\", \"required\": true}\n"
    "  }\n"
    "}\n";

static const char stricter_kind_10[] =
    "{\n"
    "  \"extends\": \"10-object-storage-c\",\n"
    "  \"fields\": {\n"
    "    \"costCenter\": {\"type\": \"string\", \"description\": \"Who pays.\", \"required\": "
    "true},\n"
    "    \"cachePercent\": {\"maximum\": 50}\n"
    "  }\n"
    "}\n";

static const char broken_kind[] = "{\n  \"title\": \"Broken\",\n  \"types\": [\"BROKEN\"],\n"
                                  "  \"fields\": {\"port\": {\"type\": \"int\"}}\n}\n";

static const char queue_doc[] =
    "{\"name\": \"q\", \"type\": \"MESSAGE_QUEUE\", \"config\": {\"brokerUrl\": \"amqp://b\"}}\n";

static const char storage_doc[] =
    "{\"name\": \"c\", \"type\": \"CLOUDC_OBJECT_STORAGE\", \"config\": {\"projectId\": \"p\", "
    "\"authMode\": \"AUTO\", \"cachingEnable\": true, \"cachePercent\": 70}}\n";

static int setup(void **state)
{
    (void)state;
    if (scratch_create("cli-custom-kinds") != 0)
        return -1;
    write_file("team/srcls.json", "{\"schemas\": [\"kinds\"], \"types\": {\"MQ\": "
                                  "\"MESSAGE_QUEUE\"}}\n");
    write_file("team/kinds/queue.json", queue_kind);
    write_file("team/kinds/object-storage-c.json", stricter_kind_10);
    write_file("team/kinds/broken.json", broken_kind);
    write_file("team/configs/q.source.json", queue_doc);
    write_file("team/configs/c.source.json", storage_doc);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove();
    return 0;
}

static void test_the_projects_kinds_check_its_documents_and_a_broken_one_is_placed(void **state)
{
    (void)state;
    struct run r = run_srcls(NULL, (const char *const[]){"--check", "team", NULL});
    assert_exit(&r, 1);
    /* the extension: its new required field and its stricter bound */
    assert_line(&r, "team/configs/c.source.json:1:48: error: missing required field "
                    "\"costCenter\" (a string) for Object storage C (CLOUDC_OBJECT_STORAGE) "
                    "[missing-required]");
    assert_line(&r, "team/configs/c.source.json:1:136: error: \"cachePercent\" must be between 1 "
                    "and 50 [out-of-range]");
    /* the new kind */
    assert_line(&r, "team/configs/q.source.json:1:40: error: missing required field \"topic\" "
                    "(a string) for Message queue (MESSAGE_QUEUE) [missing-required]");
    /* the kind files are linted as kind files: the broken one where it is wrong, the others
     * clean (not "not a source or job document") */
    assert_line(&r, "team/kinds/broken.json:4:31: error: unknown type name [project-config]");
    assert_line(&r, "checked 5 files: 4 errors, 0 warnings, 0 information, 0 hints");
    assert_null(strstr(r.out, "queue.json"));
    assert_true(has_line(r.err, "srcls: team/kinds/broken.json:4:31 at /fields/port/type: "
                                "unknown type name (left out: the other kinds are loaded)"));
    run_free(&r);
}

static void test_a_type_mapped_onto_a_custom_kind_is_accepted(void **state)
{
    (void)state;
    write_file("team/configs/mq.source.json",
               "{\"name\": \"m\", \"type\": \"MQ\", \"config\": {\"brokerUrl\": \"b\", "
               "\"topic\": \"t\"}}\n");
    struct run r =
        run_srcls(NULL, (const char *const[]){"--check", "team/configs/mq.source.json", NULL});
    assert_exit(&r, 0);
    run_free(&r);
    remove_tree("team/configs/mq.source.json");
}

static void test_a_directory_that_cannot_be_read_is_a_mistake_of_srcls_json(void **state)
{
    (void)state;
    write_file("gone/srcls.json", "{\"schemas\": [\"kinds\", \"nowhere\"]}\n");
    write_file("gone/kinds/queue.json", queue_kind);
    write_file("gone/q.source.json", queue_doc);
    struct run r = run_srcls(NULL, (const char *const[]){"--check", "gone/q.source.json", NULL});
    assert_exit(&r, 2);
    char expected[4096];
    snprintf(expected, sizeof expected,
             "srcls: %s/gone/srcls.json:1:23: cannot read the directory of kind files "
             "%s/gone/nowhere: No such file or directory",
             scratch_dir(), scratch_dir());
    assert_true(has_line(r.err, expected));
    run_free(&r);
}

static void test_list_kinds_shows_the_projects_kinds(void **state)
{
    (void)state;
    write_file("here/srcls.json", "{\"schemas\": [\"kinds\"]}\n");
    write_file("here/kinds/queue.json", queue_kind);
    struct run r = run_srcls(NULL, (const char *const[]){"--list-kinds", NULL});
    /* the scratch directory has no srcls.json: the built-in kinds only */
    assert_exit(&r, 0);
    assert_null(strstr(r.out, "MESSAGE_QUEUE"));
    run_free(&r);
    /* from here/, under its srcls.json: the project's kind too, and the file it comes from */
    struct run_options from_here = {.subdir = "here"};
    r = run_srcls_with(&from_here, (const char *const[]){"--list-kinds", NULL});
    assert_exit(&r, 0);
    char line[8192];
    snprintf(line, sizeof line,
             "26  MESSAGE_QUEUE                                 Message queue "
             "(%s/here/kinds/queue.json)",
             scratch_dir());
    assert_line(&r, line);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_projects_kinds_check_its_documents_and_a_broken_one_is_placed),
        cmocka_unit_test(test_a_type_mapped_onto_a_custom_kind_is_accepted),
        cmocka_unit_test(test_a_directory_that_cannot_be_read_is_a_mistake_of_srcls_json),
        cmocka_unit_test(test_list_kinds_shows_the_projects_kinds),
    };
    return harness_status(cmocka_run_group_tests(tests, setup, teardown));
}
