#include "compiler/targets/cpu/cpu_target.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/builtin.h"
#include "compiler/ir/printer.h"
#include "compiler/targets/cpu/c_emitter.h"
#include "compiler/targets/cpu/concat_entry.h"
#include "compiler/targets/cpu/conv_entry.h"
#include "compiler/targets/cpu/depthwise_entry.h"
#include "compiler/targets/cpu/elementwise_entry.h"
#include "compiler/targets/cpu/embedded_headers.h"
#include "compiler/targets/cpu/epilogue.h"
#include "compiler/targets/cpu/matmul_entry.h"
#include "compiler/targets/cpu/pooling_entry.h"
#include "compiler/targets/cpu/reduction_entry.h"
#include "compiler/targets/cpu/winograd_entry.h"
#include "runtime/base/threads.h"
#include "runtime/hal/local/executable_library.h"
#include "runtime/vm/assembler.h"
#include "runtime/vm/bytecode_module.h"

extern char** environ;

//===----------------------------------------------------------------------===//
// Temporary directory
//===----------------------------------------------------------------------===//

#define KILN_CPU_MAX_TEMP_FILES 80

typedef struct kiln_cpu_temp_t {
  char dir[256];
  char files[KILN_CPU_MAX_TEMP_FILES][320];
  int file_count;
} kiln_cpu_temp_t;

static kiln_status_t kiln_cpu_temp_create(kiln_cpu_temp_t* t) {
  memset(t, 0, sizeof(*t));
  const char* tmpdir = getenv("TMPDIR");
  snprintf(t->dir, sizeof(t->dir), "%s/kiln-cpu-XXXXXX",
           tmpdir && tmpdir[0] ? tmpdir : "/tmp");
  if (!mkdtemp(t->dir)) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                            "cpu backend: cannot create a temporary "
                            "directory in %s: %s",
                            tmpdir && tmpdir[0] ? tmpdir : "/tmp",
                            strerror(errno));
  }
  return kiln_ok_status();
}

// The path of temporary file |name| (registered for removal).
static const char* kiln_cpu_temp_path(kiln_cpu_temp_t* t, const char* name) {
  if (t->file_count == KILN_CPU_MAX_TEMP_FILES) return NULL;
  char dir[sizeof(t->dir)];
  memcpy(dir, t->dir, sizeof(dir));
  char* path = t->files[t->file_count++];
  snprintf(path, sizeof(t->files[0]), "%s/%s", dir, name);
  return path;
}

static void kiln_cpu_temp_remove(kiln_cpu_temp_t* t) {
  for (int i = 0; i < t->file_count; ++i) unlink(t->files[i]);
  if (t->dir[0]) rmdir(t->dir);
}

static kiln_status_t kiln_cpu_write_file(const char* path, const void* data,
                                         size_t size) {
  FILE* f = fopen(path, "wb");
  if (!f) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE, "cannot write '%s': %s",
                            path, strerror(errno));
  }
  size_t written = size ? fwrite(data, 1, size, f) : 0;
  int closed = fclose(f);
  if (written != size || closed != 0) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE, "cannot write '%s'", path);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_cpu_read_file(const char* path, uint8_t** out_data,
                                        size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  FILE* f = fopen(path, "rb");
  if (!f) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE, "cannot read '%s': %s",
                            path, strerror(errno));
  }
  size_t capacity = 1 << 16, size = 0;
  uint8_t* data = (uint8_t*)malloc(capacity);
  while (data) {
    size_t n = fread(data + size, 1, capacity - size, f);
    size += n;
    if (size < capacity) break;
    uint8_t* bigger = (uint8_t*)realloc(data, capacity * 2);
    if (!bigger) {
      free(data);
      data = NULL;
      break;
    }
    data = bigger;
    capacity *= 2;
  }
  fclose(f);
  if (!data) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory reading '%s'", path);
  }
  *out_data = data;
  *out_size = size;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Running the C compiler
//===----------------------------------------------------------------------===//

#define KILN_CPU_MAX_ARGS 48
// ISA variants of one module (--iree-llvmcpu-target-cpu=a,b,...).
#define KILN_CPU_MAX_VARIANTS 4
// Compiler processes of one build: ISA variants x parts of the dispatches.
#define KILN_CPU_MAX_PARTS 4
#define KILN_CPU_MAX_JOBS (KILN_CPU_MAX_VARIANTS * KILN_CPU_MAX_PARTS)

typedef struct kiln_cpu_argv_t {
  const char* argv[KILN_CPU_MAX_ARGS + 1];
  int argc;
  char storage[KILN_CPU_MAX_ARGS][320];  // for formatted arguments
} kiln_cpu_argv_t;

static void kiln_cpu_arg(kiln_cpu_argv_t* a, const char* arg) {
  if (a->argc < KILN_CPU_MAX_ARGS) a->argv[a->argc++] = arg;
  a->argv[a->argc] = NULL;
}

static void kiln_cpu_argf(kiln_cpu_argv_t* a, const char* format,
                          const char* value) {
  if (a->argc >= KILN_CPU_MAX_ARGS) return;
  snprintf(a->storage[a->argc], sizeof(a->storage[0]), format, value);
  kiln_cpu_arg(a, a->storage[a->argc]);
}

// Starts |argv| with stdout and stderr into |log_path|.
static kiln_status_t kiln_cpu_spawn(const kiln_cpu_argv_t* a,
                                    const char* log_path, const char* flag,
                                    pid_t* out_pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  int rc = posix_spawnp(out_pid, a->argv[0], &actions, NULL,
                        (char* const*)a->argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cpu backend: cannot run the C compiler '%s' "
                            "(%s); install one or choose it with %s",
                            a->argv[0], strerror(rc), flag);
  }
  return kiln_ok_status();
}

// Waits for |pid| (started by kiln_cpu_spawn); fails with a message naming
// the compiler, how it failed and the start of its output.
static kiln_status_t kiln_cpu_finish(const kiln_cpu_argv_t* a, pid_t pid,
                                     const char* log_path, const char* flag) {
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) {
      return kiln_make_status(KILN_STATUS_INTERNAL,
                              "cpu backend: waiting for '%s' failed: %s",
                              a->argv[0], strerror(errno));
    }
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return kiln_ok_status();
  char output[600] = "";
  FILE* f = fopen(log_path, "rb");
  if (f) {
    size_t n = fread(output, 1, sizeof(output) - 1, f);
    output[n] = 0;
    fclose(f);
    for (size_t i = 0; i < n; ++i) {
      if (output[i] == '\n') output[i] = ' ';
    }
  }
  if (WIFSIGNALED(wstatus)) {
    return kiln_make_status(KILN_STATUS_ABORTED,
                            "cpu backend: the C compiler '%s' was killed by "
                            "signal %d",
                            a->argv[0], WTERMSIG(wstatus));
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cpu backend: the C compiler '%s' was not found; "
                            "install one or choose it with %s",
                            a->argv[0], flag);
  }
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "cpu backend: the C compiler '%s' failed (exit "
                          "%d): %s",
                          a->argv[0],
                          WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
                          output[0] ? output : "(no output)");
}

// Runs |argv| to completion (kiln_cpu_spawn + kiln_cpu_finish).
static kiln_status_t kiln_cpu_run(const kiln_cpu_argv_t* a,
                                  const char* log_path, const char* flag) {
  pid_t pid = 0;
  KILN_RETURN_IF_ERROR(kiln_cpu_spawn(a, log_path, flag, &pid));
  return kiln_cpu_finish(a, pid, log_path, flag);
}

// Runs |count| commands, at most |parallel| at a time; the first failure
// (in command order) is returned after every started one has finished, so
// no compiler outlives the temporary directory.
static kiln_status_t kiln_cpu_run_all(const kiln_cpu_argv_t* commands,
                                      const char* const* log_paths,
                                      size_t count, size_t parallel,
                                      const char* flag) {
  pid_t pids[KILN_CPU_MAX_JOBS];
  kiln_status_t results[KILN_CPU_MAX_JOBS];
  size_t started = 0, finished = 0;
  if (parallel < 1) parallel = 1;
  while (finished < count) {
    while (started < count && started - finished < parallel) {
      results[started] = kiln_cpu_spawn(&commands[started], log_paths[started],
                                        flag, &pids[started]);
      if (results[started]) pids[started] = 0;
      ++started;
    }
    // Oldest first: the order jobs finish in does not change the result.
    if (pids[finished]) {
      results[finished] = kiln_cpu_finish(&commands[finished], pids[finished],
                                          log_paths[finished], flag);
    }
    ++finished;
  }
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < count; ++i) {
    if (!status) {
      status = results[i];
    } else {
      kiln_status_free(results[i]);
    }
  }
  return status;
}

//===----------------------------------------------------------------------===//
// Target flags
//===----------------------------------------------------------------------===//

static bool kiln_cpu_has_prefix(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

// True for --iree-llvmcpu-target-cpu values that only name one
// architecture's CPUs: the x86-64 levels, Arm architectures and cores.
static bool kiln_cpu_is_x86_name(const char* cpu) {
  return kiln_cpu_has_prefix(cpu, "x86-64");
}
static bool kiln_cpu_is_arm_name(const char* cpu) {
  return kiln_cpu_has_prefix(cpu, "armv") ||
         kiln_cpu_has_prefix(cpu, "cortex-") ||
         kiln_cpu_has_prefix(cpu, "neoverse-") ||
         kiln_cpu_has_prefix(cpu, "apple-");
}

// Fails (before any C compiler runs) when variant |cpu| names a CPU of the
// other architecture than the target's: an aarch64 compiler would only
// answer with its list of -march values.
static kiln_status_t kiln_cpu_check_variant(const char* cpu, bool aarch64,
                                            const char* triple) {
  bool wrong = aarch64 ? kiln_cpu_is_x86_name(cpu) : kiln_cpu_is_arm_name(cpu);
  if (!wrong) return kiln_ok_status();
  return kiln_make_status(
      KILN_STATUS_INVALID_ARGUMENT,
      "--iree-llvmcpu-target-cpu=%s is an %s CPU, but the target is %s; use "
      "host, generic or %s",
      cpu, aarch64 ? "x86-64" : "Arm",
      triple && triple[0] ? triple : (aarch64 ? "aarch64" : "x86_64"),
      aarch64 ? "an Arm name (armv8.2-a, cortex-a76, neoverse-n1, ...)"
              : "an x86-64 name (x86-64-v3, skylake, znver4, ...)");
}

// Adds the ISA flags of |options| to |a|. x86-64: -march=NAME (CPU and
// level names alike) and -mFEATURE / -mno-FEATURE. aarch64: -march for
// architectures (armv8.2-a), -mcpu for cores (cortex-a76), features as
// extensions of either (+dotprod, +nosve). "host" is the machine kiln-compile
// runs on; cross-compiling there is no such CPU, so it means the cross
// compiler's default (the portable baseline of its target), as "generic".
static void kiln_cpu_target_flags(const kiln_cpu_target_options_t* options,
                                  bool cross, bool aarch64,
                                  kiln_cpu_argv_t* a) {
  const char* cpu = options->target_cpu;
  bool host = !cpu || !cpu[0] || strcmp(cpu, "host") == 0;
  const char* f = options->target_cpu_features;
  if (!aarch64) {
    if (host) {
      if (!cross) kiln_cpu_arg(a, "-march=native");
    } else if (strcmp(cpu, "generic") == 0) {
      kiln_cpu_arg(a, "-march=x86-64");
    } else {
      kiln_cpu_argf(a, "-march=%s", cpu);
    }
    // "+avx512f,-avx2" -> -mavx512f -mno-avx2.
    while (f && *f) {
      const char* end = strchr(f, ',');
      size_t n = end ? (size_t)(end - f) : strlen(f);
      if (n > 1 && n < 80 && (f[0] == '+' || f[0] == '-')) {
        char name[80];
        memcpy(name, f + 1, n - 1);
        name[n - 1] = 0;
        kiln_cpu_argf(a, f[0] == '+' ? "-m%s" : "-mno-%s", name);
      }
      f = end ? end + 1 : NULL;
    }
    return;
  }
  // "+dotprod,-sve" -> "+dotprod+nosve".
  char ext[256] = "";
  size_t used = 0;
  while (f && *f) {
    const char* end = strchr(f, ',');
    size_t n = end ? (size_t)(end - f) : strlen(f);
    if (n > 1 && (f[0] == '+' || f[0] == '-') && used + n + 3 < sizeof(ext)) {
      used += (size_t)snprintf(ext + used, sizeof(ext) - used, "+%s%.*s",
                               f[0] == '-' ? "no" : "", (int)(n - 1), f + 1);
    }
    f = end ? end + 1 : NULL;
  }
  char flag[320];
  if (host && !cross) {
    snprintf(flag, sizeof(flag), "-mcpu=native%s", ext);
  } else if (host || strcmp(cpu, "generic") == 0) {
    if (host && !ext[0]) return;  // the cross compiler's default
    snprintf(flag, sizeof(flag), "-march=armv8-a%s", ext);
  } else {
    snprintf(flag, sizeof(flag), "-m%s=%s%s",
             kiln_cpu_has_prefix(cpu, "armv") ? "arch" : "cpu", cpu, ext);
  }
  kiln_cpu_argf(a, "%s", flag);
}

// The feature bits the compiled code may use, read from the macros the C
// compiler predefines for the chosen flags (so every -march name maps the
// same way, including ones kiln has never heard of).
typedef struct kiln_cpu_feature_macro_t {
  const char* macro;
  uint64_t bit;
} kiln_cpu_feature_macro_t;

static uint64_t kiln_cpu_features_from_macros(const char* text, bool aarch64) {
  static const kiln_cpu_feature_macro_t kX86[] = {
      {"__SSE4_2__", KILN_HAL_CPU_FEATURE_X86_64_SSE4_2},
      {"__AVX__", KILN_HAL_CPU_FEATURE_X86_64_AVX},
      {"__AVX2__", KILN_HAL_CPU_FEATURE_X86_64_AVX2},
      {"__FMA__", KILN_HAL_CPU_FEATURE_X86_64_FMA},
      {"__F16C__", KILN_HAL_CPU_FEATURE_X86_64_F16C},
      {"__AVX512F__", KILN_HAL_CPU_FEATURE_X86_64_AVX512F},
      {"__AVX512BW__", KILN_HAL_CPU_FEATURE_X86_64_AVX512BW},
      {"__AVX512DQ__", KILN_HAL_CPU_FEATURE_X86_64_AVX512DQ},
      {"__AVX512VL__", KILN_HAL_CPU_FEATURE_X86_64_AVX512VL},
      {"__AVX512VNNI__", KILN_HAL_CPU_FEATURE_X86_64_AVX512VNNI},
      {"__AVX512BF16__", KILN_HAL_CPU_FEATURE_X86_64_AVX512BF16},
      {NULL, 0},
  };
  static const kiln_cpu_feature_macro_t kArm[] = {
      {"__ARM_NEON", KILN_HAL_CPU_FEATURE_AARCH64_NEON},
      {"__ARM_FEATURE_DOTPROD", KILN_HAL_CPU_FEATURE_AARCH64_DOTPROD},
      {"__ARM_FEATURE_MATMUL_INT8", KILN_HAL_CPU_FEATURE_AARCH64_I8MM},
      {"__ARM_FEATURE_FP16_VECTOR_ARITHMETIC",
       KILN_HAL_CPU_FEATURE_AARCH64_FP16},
      {"__ARM_FEATURE_BF16_VECTOR_ARITHMETIC",
       KILN_HAL_CPU_FEATURE_AARCH64_BF16},
      {"__ARM_FEATURE_SVE", KILN_HAL_CPU_FEATURE_AARCH64_SVE},
      {NULL, 0},
  };
  uint64_t bits = 0;
  char needle[64];
  for (const kiln_cpu_feature_macro_t* m = aarch64 ? kArm : kX86; m->macro;
       ++m) {
    snprintf(needle, sizeof(needle), "#define %s ", m->macro);
    if (strstr(text, needle)) bits |= m->bit;
  }
  return bits;
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

typedef struct kiln_cpu_entry_t {
  const char* old_executable;  // symbol of the vmvx executable it replaces
  size_t old_executable_length;
  const char* name;  // entry point name
  size_t name_length;
  const char* source;
  size_t source_length;
  uint32_t local_memory;  // bytes of per-worker scratch the entry needs
  bool uses_imports;      // calls the runtime's micro-kernels (imports)
  size_t function;        // the C function that runs it (kiln_v*_dispatch_N)
} kiln_cpu_entry_t;

// The distinct C functions of a module's dispatches. Dispatches whose C is
// the same text share one function (BERT-base: 360 dispatches, 23
// functions; its layers differ only in the weights they are bound to), so
// the C compiler sees each once. Functions are written with the name
// KILN_CPU_DISPATCH(@@) and compared as such; "@@" becomes the index when a
// new one is appended to the translation unit.
typedef struct kiln_cpu_functions_t {
  kiln_ir_string_builder_t* texts;
  uint64_t* hashes;
  // Where each function starts in the translation unit (so that it can be
  // cut into parts compiled side by side).
  size_t* offsets;
  size_t count, capacity;
} kiln_cpu_functions_t;

#define KILN_CPU_FUNCTION_PLACEHOLDER "KILN_CPU_DISPATCH(@@)"

static uint64_t kiln_cpu_hash(const char* data, size_t size) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < size; ++i) {
    h = (h ^ (uint8_t)data[i]) * 1099511628211ull;
  }
  return h;
}

// Takes |fn| (written with the placeholder name): the index of an equal
// function, or a new index with |fn| appended to |tu| under that name.
static kiln_status_t kiln_cpu_functions_add(kiln_cpu_functions_t* f,
                                            kiln_ir_string_builder_t* fn,
                                            kiln_ir_string_builder_t* tu,
                                            size_t* out_index) {
  uint64_t hash = kiln_cpu_hash(fn->data, fn->size);
  for (size_t i = 0; i < f->count; ++i) {
    if (f->hashes[i] == hash && f->texts[i].size == fn->size &&
        memcmp(f->texts[i].data, fn->data, fn->size) == 0) {
      kiln_ir_sb_free(fn);
      *out_index = i;
      return kiln_ok_status();
    }
  }
  if (f->count == f->capacity) {
    size_t cap = f->capacity ? 2 * f->capacity : 64;
    kiln_ir_string_builder_t* texts =
        (kiln_ir_string_builder_t*)realloc(f->texts, cap * sizeof(*texts));
    if (texts) f->texts = texts;
    uint64_t* hashes = (uint64_t*)realloc(f->hashes, cap * sizeof(*hashes));
    if (hashes) f->hashes = hashes;
    size_t* offsets = (size_t*)realloc(f->offsets, cap * sizeof(*offsets));
    if (offsets) f->offsets = offsets;
    if (!texts || !hashes || !offsets) {
      kiln_ir_sb_free(fn);
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    f->capacity = cap;
  }
  size_t index = f->count++;
  f->texts[index] = *fn;
  f->hashes[index] = hash;
  f->offsets[index] = tu->size;
  memset(fn, 0, sizeof(*fn));
  const char* text = f->texts[index].data;
  size_t size = f->texts[index].size, start = 0;
  for (size_t i = 0; i + 1 < size; ++i) {
    if (text[i] == '@' && text[i + 1] == '@') {
      kiln_ir_sb_append(tu, text + start, i - start);
      kiln_ir_sb_printf(tu, "%zu", index);
      start = ++i + 1;
    }
  }
  kiln_ir_sb_append(tu, text + start, size - start);
  *out_index = index;
  return kiln_ok_status();
}

static void kiln_cpu_functions_free(kiln_cpu_functions_t* f) {
  for (size_t i = 0; i < f->count; ++i) kiln_ir_sb_free(&f->texts[i]);
  free(f->texts);
  free(f->hashes);
  free(f->offsets);
  memset(f, 0, sizeof(*f));
}

// Translates one vmvx executable (its nested VM assembly |text|) into the C
// function |c_name|.
static kiln_status_t kiln_cpu_translate(kiln_vm_instance_t* instance,
                                        const char* text, size_t length,
                                        const char* entry, size_t entry_length,
                                        const char* c_name,
                                        kiln_ir_string_builder_t* tu) {
  // The nested form is `module @name {` ... `}`; the assembler's top level
  // is `module @name` followed by the contents.
  const char* open = memchr(text, '{', length);
  const char* close = NULL;
  for (size_t i = length; i-- > 0;) {
    if (text[i] == '}') {
      close = text + i;
      break;
    }
  }
  if (!open || !close || close < open) {
    return kiln_make_status(KILN_STATUS_INTERNAL,
                            "cpu backend: malformed dispatch program");
  }
  kiln_ir_string_builder_t top = {0};
  kiln_ir_sb_append(&top, text, (size_t)(open - text));
  kiln_ir_sb_append(&top, "\n", 1);
  kiln_ir_sb_append(&top, open + 1, (size_t)(close - open - 1));
  if (top.failed) {
    kiln_ir_sb_free(&top);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  uint8_t* bytes = NULL;
  size_t bytes_length = 0;
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_status_t status = kiln_vm_assemble(top.data, top.size, "<dispatch>",
                                          allocator, &bytes, &bytes_length);
  kiln_ir_sb_free(&top);
  kiln_vm_module_t* bc = NULL;
  if (!status) {
    status = kiln_vm_bytecode_module_load_memory(
        instance, bytes, bytes_length, KILN_VM_BYTECODE_LOAD_FLAG_NONE,
        allocator, &bc);
  }
  kiln_allocator_free(allocator, bytes);
  if (status) return status;
  // The entry point is the internal function of that name.
  size_t count =
      kiln_vm_module_function_count(bc, KILN_VM_FUNCTION_LINKAGE_INTERNAL);
  uint32_t ordinal = UINT32_MAX;
  for (size_t i = 0; i < count && !status; ++i) {
    kiln_vm_function_t fn;
    status = kiln_vm_module_function_at(bc, KILN_VM_FUNCTION_LINKAGE_INTERNAL,
                                        (uint32_t)i, &fn);
    if (!status &&
        kiln_string_view_equal(kiln_vm_function_name(&fn),
                               kiln_make_string_view(entry, entry_length))) {
      ordinal = (uint32_t)i;
    }
  }
  if (!status && ordinal == UINT32_MAX) {
    status = kiln_make_status(KILN_STATUS_INTERNAL,
                              "cpu backend: dispatch program has no '%.*s'",
                              (int)entry_length, entry);
  }
  if (!status) status = kiln_cpu_emit_entry_c(bc, ordinal, c_name, tu);
  kiln_vm_module_release(bc);
  return status;
}

static void kiln_cpu_quote_c(kiln_ir_string_builder_t* tu, const char* s,
                             size_t n) {
  kiln_ir_sb_append(tu, "\"", 1);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      kiln_ir_sb_append(tu, esc, 2);
    } else if (c < 0x20 || c >= 0x7f) {
      kiln_ir_sb_printf(tu, "\\%03o", c);
    } else {
      kiln_ir_sb_append(tu, (const char*)&c, 1);
    }
  }
  kiln_ir_sb_append(tu, "\"", 1);
}

static kiln_status_t kiln_cpu_copy_to_dir(const char* dir, const char* name,
                                          const void* data, size_t size) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  mkdir(dir, 0777);  // may exist
  return kiln_cpu_write_file(path, data, size);
}

//===----------------------------------------------------------------------===//
// ISA variants
//===----------------------------------------------------------------------===//

typedef struct kiln_cpu_variant_t {
  char cpu[64];       // --iree-llvmcpu-target-cpu value ("host", ...)
  uint64_t features;  // what its code may use (from the compiler's macros)
  bool gcc;           // the C compiler is GCC (not clang, which defines both)
} kiln_cpu_variant_t;

// "x86-64-v4,x86-64-v3,generic" -> variants in that order (best first).
static kiln_status_t kiln_cpu_parse_variants(const char* list,
                                             kiln_cpu_variant_t* variants,
                                             size_t* out_count) {
  *out_count = 0;
  if (!list || !list[0]) list = "host";
  while (*list) {
    const char* end = strchr(list, ',');
    size_t n = end ? (size_t)(end - list) : strlen(list);
    if (n == 0 || n >= sizeof(variants[0].cpu)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--iree-llvmcpu-target-cpu: bad entry in '%s'",
                              list);
    }
    if (*out_count == KILN_CPU_MAX_VARIANTS) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--iree-llvmcpu-target-cpu: at most %d "
                              "variants",
                              KILN_CPU_MAX_VARIANTS);
    }
    kiln_cpu_variant_t* v = &variants[(*out_count)++];
    memcpy(v->cpu, list, n);
    v->cpu[n] = 0;
    v->features = 0;
    list = end ? end + 1 : list + n;
  }
  return kiln_ok_status();
}

// Reads the feature bits the flags of |variant| enable (cc -dM -E).
static kiln_status_t kiln_cpu_variant_features(
    const kiln_cpu_target_options_t* options, const char* cc, bool cross,
    bool aarch64, kiln_cpu_temp_t* temp, kiln_cpu_variant_t* variant) {
  kiln_cpu_target_options_t o = *options;
  o.target_cpu = variant->cpu;
  const char* macros_path = kiln_cpu_temp_path(temp, "macros.txt");
  if (!macros_path) {
    return kiln_make_status(KILN_STATUS_INTERNAL, "too many temporary files");
  }
  kiln_cpu_argv_t a;
  memset(&a, 0, sizeof(a));
  kiln_cpu_arg(&a, cc);
  kiln_cpu_target_flags(&o, cross, aarch64, &a);
  kiln_cpu_arg(&a, "-dM");
  kiln_cpu_arg(&a, "-E");
  kiln_cpu_arg(&a, "-x");
  kiln_cpu_arg(&a, "c");
  kiln_cpu_arg(&a, "/dev/null");
  kiln_status_t status = kiln_cpu_run(&a, macros_path, "--cc=PATH (or $CC)");
  if (status && options->target_cpu && options->target_cpu[0]) {
    return kiln_status_annotate_f(status, "with --iree-llvmcpu-target-cpu=%s",
                                  variant->cpu);
  }
  if (status) return status;
  uint8_t* text = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(kiln_cpu_read_file(macros_path, &text, &size));
  char* z = (char*)realloc(text, size + 1);
  if (!z) {
    free(text);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  z[size] = 0;
  // The executable is labelled with the triple's architecture: a compiler
  // that builds for another (the host's cc given an aarch64 triple) would
  // make a module no runtime can load.
  const char* arch_macro =
      aarch64 ? "#define __aarch64__ " : "#define __x86_64__ ";
  bool right_arch = strstr(z, arch_macro) != NULL;
  variant->gcc = strstr(z, "#define __GNUC__ ") != NULL &&
                 strstr(z, "#define __clang__ ") == NULL;
  variant->features = kiln_cpu_features_from_macros(z, aarch64);
  free(z);
  if (!right_arch) {
    return kiln_make_status(
        KILN_STATUS_INVALID_ARGUMENT,
        "cpu backend: the C compiler '%s' does not build for %s (it does not "
        "define %s); %s",
        cc, aarch64 ? "aarch64" : "x86_64",
        aarch64 ? "__aarch64__" : "__x86_64__",
        aarch64 ? "pass a cross compiler, e.g. --cc=aarch64-linux-gnu-gcc"
                : "pass a compiler for x86_64 with --cc=PATH");
  }
  return kiln_ok_status();
}

// Writes the library translation unit: declarations of every variant's
// entry points, one library struct per variant, and the query function.
static void kiln_cpu_write_library(const kiln_cpu_variant_t* variants,
                                   size_t variant_count,
                                   const kiln_cpu_entry_t* entries, size_t n,
                                   size_t function_count,
                                   kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(out,
                    "// Generated by kiln-compile (cpu backend): the export "
                    "tables of %zu ISA variant(s).\n"
                    "#include \"executable_library.h\"\n\n",
                    variant_count);
  for (size_t k = 0; k < variant_count; ++k) {
    for (size_t i = 0; i < function_count; ++i) {
      kiln_ir_sb_printf(out,
                        "int kiln_v%zu_dispatch_%zu("
                        "const kiln_hal_executable_environment_v1_t*, "
                        "const kiln_hal_executable_dispatch_state_v1_t*, "
                        "const kiln_hal_executable_workgroup_state_v1_t*);\n",
                        k, i);
    }
  }
  kiln_ir_sb_printf(out, "\nstatic const char* const kiln_names[] = {\n");
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_sb_append(out, "  ", 2);
    kiln_cpu_quote_c(out, entries[i].name, entries[i].name_length);
    kiln_ir_sb_append(out, ",\n", 2);
  }
  kiln_ir_sb_printf(out, "};\nstatic const char* const kiln_sources[] = {\n");
  for (size_t i = 0; i < n; ++i) {
    kiln_ir_sb_append(out, "  ", 2);
    kiln_cpu_quote_c(out, entries[i].source, entries[i].source_length);
    kiln_ir_sb_append(out, ",\n", 2);
  }
  kiln_ir_sb_printf(out, "};\n");
  // The micro-kernels the entries call (resolved by the runtime).
  bool imports = false;
  for (size_t i = 0; i < n; ++i) imports = imports || entries[i].uses_imports;
  static const char* const kImports[] = KILN_CPU_MATMUL_IMPORTS;
  kiln_ir_sb_printf(out, "static const char* const kiln_imports[] = {\n");
  for (size_t i = 0; i < KILN_CPU_MATMUL_IMPORT_COUNT; ++i) {
    kiln_ir_sb_printf(out, "  \"%s\",\n", kImports[i]);
  }
  kiln_ir_sb_printf(out, "};\n");
  for (size_t k = 0; k < variant_count; ++k) {
    kiln_ir_sb_printf(out,
                      "static const kiln_hal_executable_dispatch_fn_v1_t "
                      "kiln_v%zu_exports[] = {\n",
                      k);
    for (size_t i = 0; i < n; ++i) {
      kiln_ir_sb_printf(out, "  kiln_v%zu_dispatch_%zu,\n", k,
                        entries[i].function);
    }
    kiln_ir_sb_printf(
        out,
        "};\n"
        "static const kiln_hal_executable_library_v1_t kiln_v%zu_library = {\n"
        "  {KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1, \"kiln_cpu_%s\", "
        "0x%llxull},\n"
        "  {%d, kiln_imports},\n"
        "  {%zu, kiln_v%zu_exports, kiln_names, 0, kiln_sources},\n"
        "};\n",
        k, variants[k].cpu, (unsigned long long)variants[k].features,
        imports ? KILN_CPU_MATMUL_IMPORT_COUNT : 0, n, k);
  }
  kiln_ir_sb_printf(out,
                    "static const kiln_hal_executable_library_v1_t* const "
                    "kiln_variants[] = {\n");
  for (size_t k = 0; k < variant_count; ++k) {
    kiln_ir_sb_printf(out, "  &kiln_v%zu_library,\n", k);
  }
  kiln_ir_sb_printf(
      out,
      "};\n"
      "// The first (best) variant whose features the CPU has; else the "
      "last,\n"
      "// so that the runtime's check names what is missing.\n"
      "KILN_HAL_EXECUTABLE_LIBRARY_EXPORT\n"
      "const kiln_hal_executable_library_header_t*\n"
      "kiln_hal_executable_library_query(uint32_t max_version,\n"
      "    const kiln_hal_executable_environment_v1_t* environment) {\n"
      "  if (max_version < KILN_HAL_EXECUTABLE_LIBRARY_VERSION_1) return 0;\n"
      "  uint64_t have = environment ? environment->cpu_features : 0;\n"
      "  for (unsigned k = 0; k < %zu; ++k) {\n"
      "    uint64_t need = kiln_variants[k]->header.required_cpu_features;\n"
      "    if ((have & need) == need) return &kiln_variants[k]->header;\n"
      "  }\n"
      "  return &kiln_variants[%zu]->header;\n"
      "}\n",
      variant_count, variant_count - 1);
}

// The byte offsets (into |tu|) where each part of the dispatch functions
// starts, |*out_parts| + 1 of them (the last is tu->size): cut at function
// boundaries into about equal sizes. One part per job (|jobs| compilers
// run at once); with |by_size| (jobs not given: one per CPU) only for
// translation units of at least 64 KiB per part, since each part compiles
// the headers again. At most KILN_CPU_MAX_PARTS.
static void kiln_cpu_cut_parts(const kiln_ir_string_builder_t* tu,
                               const size_t* offsets, size_t function_count,
                               size_t jobs, bool by_size,
                               size_t cuts[KILN_CPU_MAX_PARTS + 1],
                               size_t* out_parts) {
  size_t body = function_count ? offsets[0] : tu->size;
  size_t bytes = tu->size - body;
  size_t parts = jobs;
  if (by_size && parts > bytes / (64 * 1024)) parts = bytes / (64 * 1024);
  if (parts > KILN_CPU_MAX_PARTS) parts = KILN_CPU_MAX_PARTS;
  if (parts > function_count) parts = function_count;
  if (parts < 1) parts = 1;
  size_t count = 0, next = 0;
  cuts[count++] = body;
  for (size_t j = 1; j < parts; ++j) {
    size_t target = body + bytes * j / parts;
    while (next < function_count && offsets[next] <= cuts[count - 1]) ++next;
    while (next + 1 < function_count && offsets[next] < target) ++next;
    if (next < function_count && offsets[next] > cuts[count - 1]) {
      cuts[count++] = offsets[next];
    }
  }
  cuts[count] = tu->size;
  *out_parts = count;
}

// The C compiler's arguments for one ISA variant's part: |c_path| into
// |o_path|.
static void kiln_cpu_compile_args(const kiln_cpu_target_options_t* options,
                                  const char* cc, bool cross, bool aarch64,
                                  const kiln_cpu_temp_t* temp,
                                  const kiln_cpu_variant_t* variant,
                                  const char* c_path, const char* o_path,
                                  kiln_cpu_argv_t* a) {
  memset(a, 0, sizeof(*a));
  kiln_cpu_target_options_t o = *options;
  o.target_cpu = variant->cpu;
  kiln_cpu_arg(a, cc);
  kiln_cpu_arg(a, "-std=c11");
  static const char* const kOptFlags[] = {"-O0", "-O1", "-O2", "-O3"};
  kiln_cpu_arg(a,
               kOptFlags[o.opt_level_plus_one ? o.opt_level_plus_one - 1 : 3]);
  // Never -ffast-math: NaN, -0.0 and rounding follow the program, and
  // contracting a*b+c into an fma would change results.
  kiln_cpu_arg(a, "-ffp-contract=off");
  kiln_cpu_arg(a, "-fno-math-errno");
  // No code reads the floating-point exception flags, so operations may
  // be speculated: selects whose sides GCC had sunk under a branch are
  // if-converted and vectorized again. Values do not change.
  kiln_cpu_arg(a, "-fno-trapping-math");
  kiln_cpu_arg(a, "-fPIC");
  kiln_cpu_arg(a, "-fvisibility=hidden");
  kiln_cpu_arg(a, "-w");
  kiln_cpu_target_flags(&o, cross, aarch64, a);
  // GCC's SLP vectorizer miscompiles the rank loop of a stable sort at
  // -O3 for aarch64 (Debian 12's aarch64-linux-gnu-gcc 12.2: counts of 1
  // came out as -1; tests/e2e/stablehlo_more/sort.mlir under qemu in
  // tests/cpu_backend/cross_aarch64_test.sh); clang and x86-64 are fine.
  if (aarch64 && variant->gcc) {
    kiln_cpu_arg(a, "-fno-tree-slp-vectorize");
  }
  kiln_cpu_argf(a, "-I%s", temp->dir);
  kiln_cpu_arg(a, "-c");
  kiln_cpu_arg(a, "-o");
  kiln_cpu_arg(a, o_path);
  kiln_cpu_arg(a, c_path);
}

// Compiles the dispatches' C (|tu|) once per variant and the library, links
// them into one shared object, and returns its bytes (malloc'ed). Each
// variant's functions are cut into parts (kiln_cpu_cut_parts) that compile
// side by side: DenseNet-121's 190 functions took 8.6 s in one compiler.
static kiln_status_t kiln_cpu_build(
    const kiln_cpu_target_options_t* options, const char* cc, bool cross,
    bool aarch64, kiln_cpu_temp_t* temp, kiln_cpu_variant_t* variants,
    size_t variant_count, const kiln_cpu_entry_t* entries, size_t n,
    size_t function_count, const size_t* function_offsets,
    const kiln_ir_string_builder_t* tu, uint8_t** out_so, size_t* out_so_size) {
  const char* cc_flag = "--cc=PATH (or $CC)";
  const char* lib_h = kiln_cpu_temp_path(temp, "executable_library.h");
  const char* num_h = kiln_cpu_temp_path(temp, "numerics.h");
  const char* log_path = kiln_cpu_temp_path(temp, "cc.log");
  const char* lib_c = kiln_cpu_temp_path(temp, "library.c");
  const char* so_path = kiln_cpu_temp_path(temp, "dispatches.so");
  if (!lib_h || !num_h || !log_path || !lib_c || !so_path) {
    return kiln_make_status(KILN_STATUS_INTERNAL, "too many temporary files");
  }
  KILN_RETURN_IF_ERROR(
      kiln_cpu_write_file(lib_h, kiln_embedded_executable_library_h,
                          kiln_embedded_executable_library_h_size));
  KILN_RETURN_IF_ERROR(kiln_cpu_write_file(num_h, kiln_embedded_numerics_h,
                                           kiln_embedded_numerics_h_size));
  const char* uk_h = kiln_cpu_temp_path(temp, "ukernel_abi.h");
  if (!uk_h) {
    return kiln_make_status(KILN_STATUS_INTERNAL, "too many temporary files");
  }
  KILN_RETURN_IF_ERROR(kiln_cpu_write_file(uk_h, kiln_embedded_ukernel_abi_h,
                                           kiln_embedded_ukernel_abi_h_size));
  for (size_t k = 0; k < variant_count; ++k) {
    KILN_RETURN_IF_ERROR(kiln_cpu_variant_features(options, cc, cross, aarch64,
                                                   temp, &variants[k]));
  }
  // Compilers at once: --kiln-llvmcpu-compile-jobs, else one per CPU.
  const size_t parallel = options->compile_jobs > 0
                              ? (size_t)options->compile_jobs
                              : (size_t)kiln_cpu_count();
  size_t cuts[KILN_CPU_MAX_PARTS + 1], parts = 1;
  kiln_cpu_cut_parts(tu, function_offsets, function_count, parallel,
                     options->compile_jobs <= 0, cuts, &parts);
  const size_t preamble = cuts[0];
  kiln_cpu_argv_t link;
  memset(&link, 0, sizeof(link));
  kiln_cpu_arg(&link, cc);
  kiln_cpu_arg(&link, "-shared");
  kiln_cpu_arg(&link, "-o");
  kiln_cpu_arg(&link, so_path);
  kiln_cpu_argv_t* jobs =
      (kiln_cpu_argv_t*)calloc(KILN_CPU_MAX_JOBS, sizeof(kiln_cpu_argv_t));
  const char* job_logs[KILN_CPU_MAX_JOBS];
  size_t job_count = 0;
  kiln_status_t status =
      jobs ? kiln_ok_status()
           : kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_ir_string_builder_t dump = {0};
  for (size_t k = 0; k < variant_count && !status; ++k) {
    kiln_ir_string_builder_t header = {0};
    kiln_ir_sb_printf(&header,
                      "// ISA variant %zu: --iree-llvmcpu-target-cpu=%s\n"
                      "#define KILN_CPU_DISPATCH(i) kiln_v%zu_dispatch_##i\n",
                      k, variants[k].cpu, k);
    kiln_ir_sb_append(&dump, header.data, header.size);
    kiln_ir_sb_append(&dump, tu->data, tu->size);
    for (size_t j = 0; j < parts && !status; ++j) {
      char name[48], obj[48], log[48];
      snprintf(name, sizeof(name), "variant%zu_%zu.c", k, j);
      snprintf(obj, sizeof(obj), "variant%zu_%zu.o", k, j);
      snprintf(log, sizeof(log), "cc%zu_%zu.log", k, j);
      const char* c_path = kiln_cpu_temp_path(temp, name);
      const char* o_path = kiln_cpu_temp_path(temp, obj);
      const char* l_path = kiln_cpu_temp_path(temp, log);
      if (!c_path || !o_path || !l_path) {
        status =
            kiln_make_status(KILN_STATUS_INTERNAL, "too many temporary files");
        break;
      }
      kiln_ir_string_builder_t text = {0};
      kiln_ir_sb_append(&text, header.data, header.size);
      kiln_ir_sb_append(&text, tu->data, preamble);
      kiln_ir_sb_append(&text, tu->data + cuts[j], cuts[j + 1] - cuts[j]);
      status = text.failed ? kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                              "out of memory")
                           : kiln_cpu_write_file(c_path, text.data, text.size);
      kiln_ir_sb_free(&text);
      if (status) break;
      kiln_cpu_compile_args(options, cc, cross, aarch64, temp, &variants[k],
                            c_path, o_path, &jobs[job_count]);
      job_logs[job_count++] = l_path;
      kiln_cpu_arg(&link, o_path);
    }
    kiln_ir_sb_free(&header);
  }
  if (!status) {
    status = kiln_cpu_run_all(jobs, job_logs, job_count, parallel, cc_flag);
  }
  free(jobs);
  kiln_ir_string_builder_t lib = {0};
  if (!status) {
    kiln_cpu_write_library(variants, variant_count, entries, n, function_count,
                           &lib);
    status = lib.failed ? kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                           "out of memory")
                        : kiln_cpu_write_file(lib_c, lib.data, lib.size);
  }
  if (!status && options->dump_sources_to) {
    kiln_ir_sb_append(&dump, lib.data, lib.size);
    status =
        dump.failed
            ? kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory")
            : kiln_cpu_copy_to_dir(options->dump_sources_to, "dispatches.c",
                                   dump.data, dump.size);
  }
  kiln_ir_sb_free(&dump);
  kiln_ir_sb_free(&lib);
  if (!status) {
    kiln_cpu_arg(&link, "-fPIC");
    kiln_cpu_argf(&link, "-I%s", temp->dir);
    kiln_cpu_arg(&link, lib_c);
    kiln_cpu_arg(&link, "-lm");
    status = kiln_cpu_run(&link, log_path, cc_flag);
  }
  if (!status) status = kiln_cpu_read_file(so_path, out_so, out_so_size);
  if (!status && options->dump_binaries_to) {
    status = kiln_cpu_copy_to_dir(options->dump_binaries_to, "dispatches.so",
                                  *out_so, *out_so_size);
  }
  if (status) {
    free(*out_so);
    *out_so = NULL;
  }
  return status;
}

// The C compiler to run: --cc, else $CC, else cc.
static const char* kiln_cpu_target_cc(const kiln_cpu_target_options_t* o) {
  const char* cc = o->cc;
  if (!cc || !cc[0]) cc = getenv("CC");
  return cc && cc[0] ? cc : "cc";
}

// A micro-kernel or direct entry sets its own grid on the dispatch region.
static kiln_status_t kiln_cpu_set_workgroup_count(kiln_ir_context_t* context,
                                                  kiln_ir_op_t* region,
                                                  const int64_t wg[3]) {
  return kiln_ir_op_set_attr(context, region, "workgroup_count",
                             kiln_ir_dense_i64_array_attr_get(
                                 context, kiln_ir_int_type(context, 64), 3, wg),
                             false);
}

// Adds |fn|, the direct entry emitted for |region|, as |e|'s function and
// gives the region the entry's grid |wg|.
static kiln_status_t kiln_cpu_add_entry(
    kiln_cpu_functions_t* functions, kiln_ir_string_builder_t* fn,
    kiln_ir_string_builder_t* tu, kiln_cpu_entry_t* e,
    kiln_ir_context_t* context, kiln_ir_op_t* region, const int64_t wg[3]) {
  KILN_RETURN_IF_ERROR(kiln_cpu_functions_add(functions, fn, tu, &e->function));
  return kiln_cpu_set_workgroup_count(context, region, wg);
}

kiln_status_t kiln_cpu_target_serialize(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_cpu_target_options_t* options) {
  kiln_cpu_target_options_t defaults;
  if (!options) {
    memset(&defaults, 0, sizeof(defaults));
    options = &defaults;
  }
  const char* triple = options->target_triple;
  bool aarch64 = triple && strncmp(triple, "aarch64", 7) == 0;
  bool cross = triple && triple[0] &&
#if defined(__x86_64__)
               strncmp(triple, "x86_64", 6) != 0;
#elif defined(__aarch64__)
               !aarch64;
#else
               true;
#endif
  if (triple && triple[0] && !aarch64 && strncmp(triple, "x86_64", 6) != 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--iree-llvmcpu-target-triple='%s' is not "
                            "supported (x86_64-* or aarch64-*)",
                            triple);
  }
#if defined(__aarch64__)
  if (!triple || !triple[0]) aarch64 = true;
#endif
  const char* format = aarch64 ? "native-elf-aarch64" : "native-elf-x86_64";
  const char* cc = kiln_cpu_target_cc(options);

  kiln_ir_block_t* body = kiln_ir_module_body(module);
  size_t entry_count = 0;
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op; op = op->next) {
    if (kiln_ir_op_is(op, KILN_HAL_EXECUTABLE_OP)) ++entry_count;
  }
  if (entry_count == 0) return kiln_ok_status();
  kiln_cpu_entry_t* entries =
      (kiln_cpu_entry_t*)calloc(entry_count, sizeof(kiln_cpu_entry_t));
  kiln_vm_instance_t* instance = NULL;
  kiln_status_t status =
      entries
          ? kiln_ok_status()
          : kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!status)
    status = kiln_vm_instance_create(kiln_allocator_system(), &instance);
  kiln_ir_string_builder_t tu = {0};
  kiln_ir_sb_printf(&tu,
                    "// Generated by kiln-compile (cpu backend): one function "
                    "per dispatch.\n#include <string.h>\n"
                    "#include \"executable_library.h\"\n"
                    "#include \"numerics.h\"\n"
                    "#include \"ukernel_abi.h\"\n\n%s\n",
                    kiln_cpu_c_prelude);
  size_t n = 0;
  kiln_cpu_functions_t functions;
  memset(&functions, 0, sizeof(functions));
  kiln_ir_op_t* first_executable = NULL;
  for (kiln_ir_op_t* op = body->first_op; op && !status; op = op->next) {
    if (!kiln_ir_op_is(op, KILN_HAL_EXECUTABLE_OP)) continue;
    if (!first_executable) first_executable = op;
    kiln_cpu_entry_t* e = &entries[n];
    size_t fl, al;
    const char* fmt = kiln_ir_op_get_string_attr(op, "format", &fl);
    const char* text = kiln_ir_op_get_string_attr(op, "vm_asm", &al);
    if (fl != 13 || memcmp(fmt, "vmvx-bytecode", 13) != 0) {
      status = kiln_make_status(KILN_STATUS_INTERNAL,
                                "cpu backend: executable of format '%.*s' "
                                "cannot be translated",
                                (int)fl, fmt);
      break;
    }
    e->old_executable =
        kiln_ir_op_get_string_attr(op, "sym_name", &e->old_executable_length);
    e->name = kiln_ir_op_get_string_attr(op, "entry", &e->name_length);
    e->source = kiln_ir_op_get_string_attr(op, "source", &e->source_length);
    const char* c_name = KILN_CPU_FUNCTION_PLACEHOLDER;
    kiln_ir_string_builder_t fn = {0};
    kiln_ir_op_t* region = kiln_dispatch_find_region(
        module,
        kiln_make_string_view(e->old_executable, e->old_executable_length));
    int64_t wg[3];
    kiln_cpu_winograd_t wino;
    if (region && !options->disable_winograd &&
        kiln_cpu_match_winograd(context, region, options->force_winograd, &wino,
                                &status)) {
      kiln_cpu_emit_winograd_entry(&wino, c_name, &fn);
      e->uses_imports = true;
      e->local_memory = kiln_cpu_winograd_local_memory(&wino);
      kiln_cpu_winograd_workgroups(&wino, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    if (status) break;
    kiln_cpu_matmul_t mm;
    kiln_cpu_gemm_t gemm;
    bool is_matmul = region && kiln_cpu_match_matmul(context, region, &mm);
    if (is_matmul) kiln_cpu_matmul_gemm(&mm, &gemm);
    if (is_matmul || (region && kiln_cpu_match_conv(context, region, &gemm))) {
      status = kiln_cpu_gemm_pack_constant_rhs(context, region, &gemm);
      if (status) break;
      // Micro-kernel entry: its own grid and scratch.
      kiln_cpu_emit_gemm_entry(&gemm, c_name, &fn);
      e->uses_imports = true;
      e->local_memory = kiln_cpu_gemm_local_memory(&gemm);
      kiln_cpu_gemm_workgroups(&gemm, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_spatial_sum_t sum;
    if (region && kiln_cpu_match_spatial_sum(context, region, &sum)) {
      kiln_cpu_emit_spatial_sum_entry(&sum, c_name, &fn);
      kiln_cpu_spatial_sum_workgroups(&sum, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_row_reduction_t rr;
    if (region && kiln_cpu_match_row_reduction(context, region, &rr)) {
      kiln_cpu_emit_row_reduction_entry(&rr, c_name, &fn);
      kiln_cpu_row_reduction_workgroups(&rr, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_concat_t concat;
    if (region && kiln_cpu_match_concat(context, region, &concat)) {
      kiln_cpu_emit_concat_entry(&concat, c_name, &fn);
      kiln_cpu_concat_workgroups(&concat, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_depthwise_t dw;
    if (region && kiln_cpu_match_depthwise(context, region, &dw)) {
      kiln_cpu_emit_depthwise_entry(&dw, c_name, &fn);
      e->uses_imports = dw.bias_silu;
      kiln_cpu_depthwise_workgroups(&dw, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_pool_t pool;
    if (region && kiln_cpu_match_pool(context, region, &pool)) {
      kiln_cpu_emit_pool_entry(&pool, c_name, &fn);
      kiln_cpu_pool_workgroups(&pool, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    kiln_cpu_elementwise_t ew;
    if (region && kiln_cpu_match_elementwise(context, region, &ew)) {
      kiln_cpu_emit_elementwise_entry(&ew, c_name, &fn);
      kiln_cpu_elementwise_workgroups(&ew, wg);
      status = kiln_cpu_add_entry(&functions, &fn, &tu, e, context, region, wg);
      ++n;
      continue;
    }
    status = kiln_cpu_translate(instance, text, al, e->name, e->name_length,
                                c_name, &fn);
    if (!status) {
      status = kiln_cpu_functions_add(&functions, &fn, &tu, &e->function);
    }
    kiln_ir_sb_free(&fn);
    if (status) {
      status = kiln_status_annotate_f(status, "in dispatch '%.*s'",
                                      (int)e->name_length, e->name);
    }
    ++n;
  }
  kiln_vm_instance_release(instance);
  // Build: every ISA variant's copy of the dispatches, one object each, and
  // the library object whose query picks the best variant the CPU has.
  kiln_cpu_variant_t variants[KILN_CPU_MAX_VARIANTS];
  size_t variant_count = 0;
  if (!status) {
    status =
        kiln_cpu_parse_variants(options->target_cpu, variants, &variant_count);
  }
  for (size_t k = 0; k < variant_count && !status; ++k) {
    status = kiln_cpu_check_variant(variants[k].cpu, aarch64, triple);
  }
  kiln_cpu_temp_t temp;
  memset(&temp, 0, sizeof(temp));
  if (!status) status = kiln_cpu_temp_create(&temp);
  uint8_t* so = NULL;
  size_t so_size = 0;
  if (!status) {
    status = kiln_cpu_build(options, cc, cross, aarch64, &temp, variants,
                            variant_count, entries, n, functions.count,
                            functions.offsets, &tu, &so, &so_size);
  }
  kiln_cpu_temp_remove(&temp);
  kiln_ir_sb_free(&tu);
  kiln_cpu_functions_free(&functions);

  // One native executable replaces the vmvx ones.
  const char* exe_name = "__cpu_dispatches";
  if (!status) {
    kiln_ir_string_builder_t block = {0};
    for (size_t i = 0; i < n; ++i) {
      kiln_ir_sb_printf(&block,
                        "  entry @%.*s workgroup 1 1 1 local_memory %u "
                        "source \"",
                        (int)entries[i].name_length, entries[i].name,
                        entries[i].local_memory);
      for (size_t k = 0; k < entries[i].source_length; ++k) {
        char c = entries[i].source[k];
        if (c == '"' || c == '\\') kiln_ir_sb_append(&block, "\\", 1);
        kiln_ir_sb_append(&block, &c, 1);
      }
      kiln_ir_sb_printf(&block, "\"\n");
    }
    kiln_ir_sb_printf(&block, "  data hex \"");
    static const char kHex[] = "0123456789abcdef";
    for (size_t i = 0; i < so_size; ++i) {
      char h[2] = {kHex[so[i] >> 4], kHex[so[i] & 15]};
      kiln_ir_sb_append(&block, h, 2);
    }
    kiln_ir_sb_printf(&block, "\"\n");
    kiln_ir_op_state_t state;
    kiln_ir_op_state_init(context, &state, KILN_HAL_EXECUTABLE_OP,
                          first_executable->location);
    kiln_ir_op_t* exe = NULL;
    status = block.failed ? kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                             "out of memory")
                          : kiln_ir_op_create(context, &state, &exe);
    if (!status) {
      status = kiln_ir_op_set_attr(
          context, exe, "sym_name",
          kiln_ir_string_attr_get(context, kiln_make_cstring_view(exe_name)),
          false);
    }
    if (!status) {
      status = kiln_ir_op_set_attr(
          context, exe, "format",
          kiln_ir_string_attr_get(context, kiln_make_cstring_view(format)),
          false);
    }
    if (!status) {
      status = kiln_ir_op_set_attr(
          context, exe, "body",
          kiln_ir_string_attr_get(
              context, kiln_make_string_view(block.data, block.size)),
          false);
    }
    kiln_ir_sb_free(&block);
    if (!status) kiln_ir_op_insert_before(exe, first_executable);
  }
  free(so);
  // Point the dispatches at their entries and drop the vmvx executables.
  if (!status) {
    for (kiln_ir_op_t* fn = body->first_op; fn && !status; fn = fn->next) {
      if (!kiln_ir_op_is(fn, "func.func") || fn->num_regions == 0) continue;
      for (kiln_ir_block_t* b = fn->regions[0].first_block; b && !status;
           b = b->next) {
        for (kiln_ir_op_t* op = b->first_op; op && !status; op = op->next) {
          if (!kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) continue;
          const kiln_ir_attribute_t* ref =
              kiln_ir_op_get_attr(op, "executable");
          if (!ref || ref->kind != KILN_IR_ATTR_SYMBOL_REF) continue;
          for (size_t i = 0; i < n; ++i) {
            if (!kiln_string_view_equal(
                    ref->symbol.root,
                    kiln_make_string_view(entries[i].old_executable,
                                          entries[i].old_executable_length))) {
              continue;
            }
            status = kiln_ir_op_set_attr(
                context, op, "executable",
                kiln_ir_symbol_ref_attr_get(
                    context, kiln_make_cstring_view(exe_name), 0, NULL),
                false);
            if (!status) {
              status = kiln_ir_op_set_attr(
                  context, op, "entry_ordinal",
                  kiln_ir_integer_attr_get(
                      context, kiln_ir_int_type(context, 32), (int64_t)i),
                  false);
            }
            break;
          }
        }
      }
    }
  }
  if (!status) {
    for (kiln_ir_op_t* op = body->first_op; op;) {
      kiln_ir_op_t* next = op->next;
      if (kiln_ir_op_is(op, KILN_HAL_EXECUTABLE_OP)) {
        size_t fl;
        const char* fmt = kiln_ir_op_get_string_attr(op, "format", &fl);
        if (fl == 13 && memcmp(fmt, "vmvx-bytecode", 13) == 0) {
          kiln_ir_op_erase(op);
        }
      }
      op = next;
    }
  }
  free(entries);
  return status;
}

//===----------------------------------------------------------------------===//
// The backend
//===----------------------------------------------------------------------===//

#include "compiler/targets/target_backend.h"

static kiln_status_t kiln_cpu_target_backend_serialize(
    kiln_ir_context_t* context, kiln_ir_op_t* module,
    const kiln_target_options_t* options) {
  return kiln_cpu_target_serialize(context, module,
                                   options ? &options->cpu : NULL);
}

static const char* const kiln_cpu_target_aliases[] = {"cpu", "llvm", NULL};

// A C compiler is there when $CC / cc names an executable file (a path, or
// a name found on $PATH). An explicit --cc asks for native code: serialize
// then names it if it cannot run.
static bool kiln_cpu_target_available(const kiln_target_options_t* options) {
  if (options->cpu.cc && options->cpu.cc[0]) return true;
  const char* cc = kiln_cpu_target_cc(&options->cpu);
  if (strchr(cc, '/')) return access(cc, X_OK) == 0;
  const char* path = getenv("PATH");
  if (!path || !path[0]) path = "/usr/local/bin:/usr/bin:/bin";
  while (*path) {
    const char* end = strchr(path, ':');
    size_t n = end ? (size_t)(end - path) : strlen(path);
    char candidate[4096];
    if (n > 0 && n + strlen(cc) + 2 <= sizeof(candidate)) {
      memcpy(candidate, path, n);
      candidate[n] = '/';
      strcpy(candidate + n + 1, cc);
      if (access(candidate, X_OK) == 0) return true;
    }
    if (!end) break;
    path = end + 1;
  }
  return false;
}

// form-dispatch-regions' window_pad_ok: the pooling and depthwise entries'
// paddings (pooling_entry.c), and zero paddings before a convolution the
// Winograd entry will take with these options (its input transform reads
// through the bounds, so the padded copy, a dispatch of its own before
// every 3x3 convolution, disappears).
static bool kiln_cpu_target_window_pad_ok(kiln_ir_context_t* context,
                                          const kiln_target_options_t* options,
                                          kiln_ir_op_t* root,
                                          kiln_ir_op_t* pad) {
  if (kiln_cpu_window_pad_ok(context, root, pad)) return true;
  return !options->cpu.disable_winograd &&
         kiln_cpu_window_pad_ok_winograd(context, root, pad,
                                         options->cpu.force_winograd);
}

const kiln_target_backend_t kiln_cpu_target_backend = {
    .name = "llvm-cpu",
    .aliases = kiln_cpu_target_aliases,
    .summary = "native code: C per dispatch, built by the system C compiler",
    .matmuls_alone = true,
    .epilogue_op_ok = kiln_cpu_epilogue_op_ok,
    .window_pad_ok = kiln_cpu_target_window_pad_ok,
    .serialize = kiln_cpu_target_backend_serialize,
    .available = kiln_cpu_target_available,
    .host_default = true,
};
