/* test_lsp_framing: the Content-Length framer of the LSP door, fed the way a pipe delivers
 * bytes — whole, joined, split anywhere — and fed broken frames, after which the next good
 * message must still come through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_framing.h"

#define MAX_RECORDED 16

/* What the sink saw: message bodies (copied) and the number of errors. */
struct recorder {
    char *messages[MAX_RECORDED];
    size_t lengths[MAX_RECORDED];
    unsigned message_count;
    unsigned error_count;
};

static void record_message(void *context, const char *body, size_t len)
{
    struct recorder *r = context;
    assert_true(r->message_count < MAX_RECORDED);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, body, len);
    copy[len] = '\0';
    r->messages[r->message_count] = copy;
    r->lengths[r->message_count] = len;
    r->message_count++;
}

static void record_error(void *context, const char *message)
{
    struct recorder *r = context;
    assert_non_null(message);
    assert_true(strlen(message) > 0);
    r->error_count++;
}

struct fixture {
    struct lsp_framing framing;
    struct recorder recorder;
    struct lsp_framing_sink sink;
};

static void fixture_init(struct fixture *fx, size_t max_body)
{
    memset(fx, 0, sizeof *fx);
    lsp_framing_init(&fx->framing, max_body);
    fx->sink = (struct lsp_framing_sink){record_message, record_error, &fx->recorder};
}

static void fixture_free(struct fixture *fx)
{
    for (unsigned i = 0; i < fx->recorder.message_count; i++)
        free(fx->recorder.messages[i]);
    lsp_framing_free(&fx->framing);
}

/* Feeds `len` bytes through an exact-size heap copy, so AddressSanitizer sees any read past
 * what was handed over. */
static void feed_n(struct fixture *fx, const char *data, size_t len)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    memcpy(copy, data, len);
    assert_int_equal(lsp_framing_feed(&fx->framing, copy, len, &fx->sink), 0);
    free(copy);
}

static void feed(struct fixture *fx, const char *text)
{
    feed_n(fx, text, strlen(text));
}

static void assert_message(const struct fixture *fx, unsigned index, const char *body)
{
    assert_true(index < fx->recorder.message_count);
    assert_int_equal(fx->recorder.lengths[index], strlen(body));
    assert_memory_equal(fx->recorder.messages[index], body, strlen(body));
}

static const char first_body[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}";
static const char second_body[] = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";

/* "Content-Length: N\r\n\r\n" + body, in `out`. */
static void frame(char *out, size_t size, const char *body)
{
    snprintf(out, size, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
}

/* ---- well-formed streams ---- */

static void test_one_message_is_delivered_whole(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char text[256];
    frame(text, sizeof text, first_body);
    feed(&fx, text);
    assert_int_equal(fx.recorder.message_count, 1);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_message(&fx, 0, first_body);
    fixture_free(&fx);
}

static void test_two_messages_joined_in_one_feed_are_both_delivered_in_order(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char one[256], two[256], both[512];
    frame(one, sizeof one, first_body);
    frame(two, sizeof two, second_body);
    snprintf(both, sizeof both, "%s%s", one, two);
    feed(&fx, both);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_message(&fx, 0, first_body);
    assert_message(&fx, 1, second_body);
    fixture_free(&fx);
}

static void test_a_message_split_at_every_byte_boundary_is_delivered_once(void **state)
{
    (void)state;
    char text[256];
    frame(text, sizeof text, first_body);
    size_t len = strlen(text);
    /* Every split point, header and body alike, including the empty first and last feeds. */
    for (size_t split = 0; split <= len; split++) {
        struct fixture fx;
        fixture_init(&fx, 0);
        feed_n(&fx, text, split);
        assert_int_equal(fx.recorder.message_count, split == len ? 1 : 0);
        feed_n(&fx, text + split, len - split);
        assert_int_equal(fx.recorder.message_count, 1);
        assert_int_equal(fx.recorder.error_count, 0);
        assert_message(&fx, 0, first_body);
        fixture_free(&fx);
    }
}

static void test_a_message_fed_one_byte_at_a_time_is_delivered_once(void **state)
{
    (void)state;
    char one[256], two[256], both[512];
    frame(one, sizeof one, first_body);
    frame(two, sizeof two, second_body);
    snprintf(both, sizeof both, "%s%s", one, two);
    struct fixture fx;
    fixture_init(&fx, 0);
    for (size_t i = 0; both[i] != '\0'; i++)
        feed_n(&fx, both + i, 1);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_message(&fx, 0, first_body);
    assert_message(&fx, 1, second_body);
    fixture_free(&fx);
}

static void test_extra_header_fields_and_any_case_of_content_length_are_accepted(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char text[512];
    snprintf(text, sizeof text,
             "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
             "content-length: %zu\r\n\r\n%s"
             "CONTENT-LENGTH: %zu\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n%s",
             strlen(first_body), first_body, strlen(second_body), second_body);
    feed(&fx, text);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_message(&fx, 0, first_body);
    assert_message(&fx, 1, second_body);
    fixture_free(&fx);
}

static void test_an_empty_body_is_a_message(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char two[256];
    frame(two, sizeof two, second_body);
    feed(&fx, "Content-Length: 0\r\n\r\n");
    feed(&fx, two);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_message(&fx, 0, "");
    assert_message(&fx, 1, second_body);
    fixture_free(&fx);
}

/* ---- broken frames ---- */

static const char *const malformed_headers[] = {
    "Content-Type: application/vscode-jsonrpc\r\n\r\n", /* no Content-Length */
    "Content-Length: -1\r\n\r\n",
    "Content-Length: abc\r\n\r\n",
    "Content-Length: \r\n\r\n",
    "Content-Length: 12abc\r\n\r\n",
    "no colon here\r\n\r\n",
};

static void test_a_malformed_header_is_reported_and_the_next_message_delivered(void **state)
{
    (void)state;
    char good[256];
    frame(good, sizeof good, second_body);
    for (size_t i = 0; i < sizeof malformed_headers / sizeof malformed_headers[0]; i++) {
        struct fixture fx;
        fixture_init(&fx, 0);
        char text[512];
        snprintf(text, sizeof text, "%s%s", malformed_headers[i], good);
        feed(&fx, text);
        assert_int_equal(fx.recorder.error_count, 1);
        assert_int_equal(fx.recorder.message_count, 1);
        assert_message(&fx, 0, second_body);
        fixture_free(&fx);
    }
}

/* A client that writes a broken header still writes its body; the framer cannot know the body's
 * length, so it must find the next header after it rather than read the body as one. */
static void test_the_body_after_a_malformed_header_is_dropped_up_to_the_next_message(void **state)
{
    (void)state;
    char good[256];
    frame(good, sizeof good, second_body);
    for (size_t i = 0; i < sizeof malformed_headers / sizeof malformed_headers[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s%s", malformed_headers[i], first_body, good);
        size_t len = strlen(text);
        /* Whole, and split in two at every byte. */
        for (size_t split = 0; split <= len; split++) {
            struct fixture fx;
            fixture_init(&fx, 0);
            feed_n(&fx, text, split);
            feed_n(&fx, text + split, len - split);
            assert_true(fx.recorder.error_count >= 1);
            assert_int_equal(fx.recorder.message_count, 1);
            assert_message(&fx, 0, second_body);
            fixture_free(&fx);
        }
    }
}

static void test_stray_line_breaks_between_messages_do_not_lose_a_message(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char one[256], two[256], text[600];
    frame(one, sizeof one, first_body);
    frame(two, sizeof two, second_body);
    snprintf(text, sizeof text, "%s\r\n%s", one, two);
    feed(&fx, text);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_message(&fx, 0, first_body);
    assert_message(&fx, 1, second_body);
    fixture_free(&fx);
}

static void test_a_body_over_the_limit_is_reported_and_skipped_exactly(void **state)
{
    (void)state;
    enum { MAX_BODY = 64, BIG = 1000 };
    char big_body[BIG + 1];
    memset(big_body, 'x', BIG);
    big_body[0] = '{'; /* bytes that could pass for neither header nor message */
    big_body[BIG - 1] = '}';
    big_body[BIG] = '\0';
    char big[BIG + 64], small[128], text[2 * BIG];
    frame(big, sizeof big, big_body);
    const char *small_body = "{\"id\":2}";
    frame(small, sizeof small, small_body);
    snprintf(text, sizeof text, "%s%s", big, small);
    size_t len = strlen(text);

    /* Whole. */
    struct fixture fx;
    fixture_init(&fx, MAX_BODY);
    feed(&fx, text);
    assert_int_equal(fx.recorder.error_count, 1);
    assert_int_equal(fx.recorder.message_count, 1);
    assert_message(&fx, 0, small_body);
    fixture_free(&fx);

    /* In chunks of every size from 1 to 70 bytes: the skipped body straddles feeds. */
    for (size_t chunk = 1; chunk <= 70; chunk++) {
        fixture_init(&fx, MAX_BODY);
        for (size_t at = 0; at < len; at += chunk)
            feed_n(&fx, text + at, len - at < chunk ? len - at : chunk);
        assert_int_equal(fx.recorder.error_count, 1);
        assert_int_equal(fx.recorder.message_count, 1);
        assert_message(&fx, 0, small_body);
        fixture_free(&fx);
    }
}

static void test_a_body_of_exactly_the_limit_is_delivered(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 8);
    feed(&fx, "Content-Length: 8\r\n\r\n{\"id\":1}Content-Length: 9\r\n\r\n{\"id\":22}"
              "Content-Length: 2\r\n\r\n{}");
    assert_int_equal(fx.recorder.error_count, 1);
    assert_int_equal(fx.recorder.message_count, 2);
    assert_message(&fx, 0, "{\"id\":1}");
    assert_message(&fx, 1, "{}");
    fixture_free(&fx);
}

static void test_a_header_over_8_kib_without_terminator_is_dropped(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    size_t len = LSP_FRAMING_MAX_HEADER + 100;
    char *header = malloc(len);
    assert_non_null(header);
    memcpy(header, "X-Padding: ", 11);
    memset(header + 11, 'a', len - 11);
    /* In chunks, as a pipe would deliver it. */
    for (size_t at = 0; at < len; at += 1000)
        feed_n(&fx, header + at, len - at < 1000 ? len - at : 1000);
    free(header);
    assert_int_equal(fx.recorder.error_count, 1);
    assert_int_equal(fx.recorder.message_count, 0);
    /* The framer holds no more than a header's worth, and the session goes on. */
    assert_true(fx.framing.len <= LSP_FRAMING_MAX_HEADER);
    char good[256];
    frame(good, sizeof good, second_body);
    feed(&fx, "\r\n\r\n");
    feed(&fx, good);
    assert_int_equal(fx.recorder.message_count, 1);
    assert_message(&fx, 0, second_body);
    fixture_free(&fx);
}

static void test_a_header_just_under_8_kib_is_accepted(void **state)
{
    (void)state;
    struct fixture fx;
    fixture_init(&fx, 0);
    char text[LSP_FRAMING_MAX_HEADER + 256];
    size_t pad = LSP_FRAMING_MAX_HEADER - 64;
    memcpy(text, "X-Padding: ", 11);
    memset(text + 11, 'a', pad);
    snprintf(text + 11 + pad, sizeof text - 11 - pad, "\r\nContent-Length: 2\r\n\r\n{}");
    feed(&fx, text);
    assert_int_equal(fx.recorder.error_count, 0);
    assert_int_equal(fx.recorder.message_count, 1);
    assert_message(&fx, 0, "{}");
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_message_is_delivered_whole),
        cmocka_unit_test(test_two_messages_joined_in_one_feed_are_both_delivered_in_order),
        cmocka_unit_test(test_a_message_split_at_every_byte_boundary_is_delivered_once),
        cmocka_unit_test(test_a_message_fed_one_byte_at_a_time_is_delivered_once),
        cmocka_unit_test(test_extra_header_fields_and_any_case_of_content_length_are_accepted),
        cmocka_unit_test(test_an_empty_body_is_a_message),
        cmocka_unit_test(test_a_malformed_header_is_reported_and_the_next_message_delivered),
        cmocka_unit_test(test_the_body_after_a_malformed_header_is_dropped_up_to_the_next_message),
        cmocka_unit_test(test_stray_line_breaks_between_messages_do_not_lose_a_message),
        cmocka_unit_test(test_a_body_over_the_limit_is_reported_and_skipped_exactly),
        cmocka_unit_test(test_a_body_of_exactly_the_limit_is_delivered),
        cmocka_unit_test(test_a_header_over_8_kib_without_terminator_is_dropped),
        cmocka_unit_test(test_a_header_just_under_8_kib_is_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
