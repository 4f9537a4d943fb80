// The list of target backends. Adding one: a folder under compiler/targets/
// with its kiln_target_backend_t, and one line below.
#include <pthread.h>
#include <string.h>

#include "compiler/targets/target_backend.h"

extern const kiln_target_backend_t kiln_vmvx_target_backend;
extern const kiln_target_backend_t kiln_cpu_target_backend;

static const kiln_target_backend_t* const kiln_target_backend_list[] = {
    &kiln_vmvx_target_backend,
    &kiln_cpu_target_backend,
};

#define KILN_TARGET_BACKEND_COUNT \
  (sizeof(kiln_target_backend_list) / sizeof(kiln_target_backend_list[0]))

const kiln_target_backend_t* const* kiln_target_backends(size_t* out_count) {
  *out_count = KILN_TARGET_BACKEND_COUNT;
  return kiln_target_backend_list;
}

const kiln_target_backend_t* kiln_target_backend_lookup(const char* name) {
  for (size_t i = 0; i < KILN_TARGET_BACKEND_COUNT; ++i) {
    const kiln_target_backend_t* b = kiln_target_backend_list[i];
    if (strcmp(b->name, name) == 0) return b;
    for (const char* const* a = b->aliases; a && *a; ++a) {
      if (strcmp(*a, name) == 0) return b;
    }
  }
  return NULL;
}

const kiln_target_backend_t* kiln_target_backend_default(
    const kiln_target_options_t* options) {
  for (size_t i = 0; i < KILN_TARGET_BACKEND_COUNT; ++i) {
    const kiln_target_backend_t* b = kiln_target_backend_list[i];
    if (b->host_default && (!b->available || b->available(options))) return b;
  }
  return kiln_target_backend_list[0];
}

// "vmvx, llvm-cpu": built once from the constant table (pthread_once, so
// that first calls on several threads do not race on the buffer).
static char kiln_target_backend_names_text[256];
static pthread_once_t kiln_target_backend_names_once = PTHREAD_ONCE_INIT;

static void kiln_target_backend_names_build(void) {
  char* names = kiln_target_backend_names_text;
  size_t n = 0;
  for (size_t i = 0; i < KILN_TARGET_BACKEND_COUNT; ++i) {
    const char* name = kiln_target_backend_list[i]->name;
    size_t len = strlen(name);
    if (n + len + 3 >= sizeof(kiln_target_backend_names_text)) break;
    if (i) {
      memcpy(names + n, ", ", 2);
      n += 2;
    }
    memcpy(names + n, name, len);
    n += len;
  }
  names[n] = 0;
}

const char* kiln_target_backend_names(void) {
  pthread_once(&kiln_target_backend_names_once,
               kiln_target_backend_names_build);
  return kiln_target_backend_names_text;
}
