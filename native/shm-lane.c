// Shared memory for the pool <-> sandbox worker lane (lib/sandbox/shm-lane.ts): two
// functions (and `source()`, the sha256 of this file it was built from), nothing else. `memfd(bytes)` makes an anonymous shared file (no name in any
// file system, closed on exec, sealed at its size) and returns its descriptor; `map(fd, bytes)` maps it and
// returns the mapping as an ArrayBuffer (unmapped when the buffer is collected). The pool
// maps the file, hands the descriptor to its worker as fd 4, and the worker maps it too.
//
// Built at install by scripts/build-lane.mjs with the system's C compiler; without one a
// prebuilt copy for Linux x64 (native/prebuilt, built from this file) is used, elsewhere
// the pool talks to its workers over pipes only. Node-API is a stable C ABI (the same
// binary loads in Node 24 and 26), so the few declarations it needs are written out here
// instead of requiring Node's headers, which a machine with a compiler may still lack.
#define _GNU_SOURCE
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct napi_env__* napi_env;
typedef struct napi_value__* napi_value;
typedef struct napi_callback_info__* napi_callback_info;
typedef int napi_status; /* napi_ok == 0 */
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);
typedef void (*napi_finalize)(napi_env env, void* data, void* hint);

extern napi_status napi_get_cb_info(napi_env, napi_callback_info, size_t*, napi_value*, napi_value*, void**);
extern napi_status napi_get_value_int32(napi_env, napi_value, int32_t*);
extern napi_status napi_get_value_uint32(napi_env, napi_value, uint32_t*);
extern napi_status napi_create_int32(napi_env, int32_t, napi_value*);
extern napi_status napi_create_external_arraybuffer(napi_env, void*, size_t, napi_finalize, void*, napi_value*);
extern napi_status napi_create_function(napi_env, const char*, size_t, napi_callback, void*, napi_value*);
extern napi_status napi_set_named_property(napi_env, napi_value, const char*, napi_value);
extern napi_status napi_throw_error(napi_env, const char*, const char*);
extern napi_status napi_create_string_utf8(napi_env, const char*, size_t, napi_value*);

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U /* Linux 6.3+; required where vm.memfd_noexec = 2 */
#endif

/* sha256 of this file, stamped by scripts/build-lane.mjs: the pool uses a helper only when
   it was built from the source beside it (a stale or foreign binary means pipes) */
#ifndef SOURCE_SHA256
#define SOURCE_SHA256 "unknown"
#endif

#define EXPORT __attribute__((visibility("default")))
#define MAX_BYTES (64u << 20)

static napi_value fail(napi_env env, const char* why) {
  napi_throw_error(env, "SHM_LANE", why);
  return NULL;
}

static napi_value Memfd(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  uint32_t bytes = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != 0 || argc < 1) return fail(env, "memfd(bytes)");
  if (napi_get_value_uint32(env, argv[0], &bytes) != 0 || bytes == 0 || bytes > MAX_BYTES) return fail(env, "memfd: bytes out of range");
  int fd = memfd_create("skillyard-lane", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
  if (fd < 0 && errno == EINVAL) fd = memfd_create("skillyard-lane", MFD_CLOEXEC | MFD_ALLOW_SEALING); /* older kernels */
  if (fd < 0) return fail(env, "memfd_create failed");
  // Sealed at its size: the worker holds a descriptor too, and a worker that shrank the
  // file would make the pool's next touch of the mapping a SIGBUS (the server's death).
  if (ftruncate(fd, bytes) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    close(fd);
    return fail(env, "could not size and seal the shared file");
  }
  napi_value result;
  napi_create_int32(env, fd, &result);
  return result;
}

static void unmap(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value Map(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd = -1;
  uint32_t bytes = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != 0 || argc < 2) return fail(env, "map(fd, bytes)");
  if (napi_get_value_int32(env, argv[0], &fd) != 0 || fd < 0) return fail(env, "map: bad descriptor");
  if (napi_get_value_uint32(env, argv[1], &bytes) != 0 || bytes == 0 || bytes > MAX_BYTES) return fail(env, "map: bytes out of range");
  // the file must really be that long: touching a mapped page past its end is SIGBUS
  // (lseek rather than fstat: glibc exports fstat itself only from 2.33, which would keep
  // the prebuilt copy from loading on older systems; nobody reads through the offset)
  off_t size = lseek(fd, 0, SEEK_END);
  if (size < (off_t)bytes) return fail(env, "map: the file is shorter than asked");
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return fail(env, "mmap failed");
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, p, bytes, unmap, (void*)(uintptr_t)bytes, &buffer) != 0) {
    munmap(p, bytes);
    return fail(env, "this Node refuses external ArrayBuffers");
  }
  return buffer;
}

static napi_value Source(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_create_string_utf8(env, SOURCE_SHA256, (size_t)-1, &result);
  return result;
}

EXPORT int32_t node_api_module_get_api_version_v1(void) { return 8; }

EXPORT napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "memfd", (size_t)-1, Memfd, NULL, &fn);
  napi_set_named_property(env, exports, "memfd", fn);
  napi_create_function(env, "map", (size_t)-1, Map, NULL, &fn);
  napi_set_named_property(env, exports, "map", fn);
  napi_create_function(env, "source", (size_t)-1, Source, NULL, &fn);
  napi_set_named_property(env, exports, "source", fn);
  return exports;
}
