/* uv_wasi_internal: what the two halves of server/platform/wasi's libuv stand-in share. */
#ifndef SRCLS_WASM_UV_WASI_INTERNAL_H
#define SRCLS_WASM_UV_WASI_INTERNAL_H

#include "uv.h"

/* What a queued request is, for the loop to call its callback the right way. */
enum { UV__WASI_REQ_FS = 1, UV__WASI_REQ_WRITE, UV__WASI_REQ_SHUTDOWN, UV__WASI_REQ_WORK };

/* A negative UV_E* error from an errno value (UV_EIO for 0). */
int uv__wasi_error(int err);
/* Queues `req` (of `type`, finished with `status`): its callback runs on the loop's next turn. */
void uv__wasi_queue(uv_loop_t *loop, uv_req_t *req, int type, int status);

#endif
