// The embedding API over the driver (compiler/driver): a session keeps the
// flags as kiln_compiler_options_t, an invocation runs one
// kiln_compiler_job_t through its stages.
#include "compiler/api/compiler_api.h"

#include <ctype.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/driver/driver.h"
#include "compiler/targets/target_backend.h"
#include "runtime/base/atomics.h"
#include "runtime/base/sync.h"
#include "runtime/base/trace_names.h"
#include "runtime/base/tracing.h"

//===----------------------------------------------------------------------===//
// Global initialization
//===----------------------------------------------------------------------===//

// Open initializations. The compiler has no process-wide state to set up
// (op definitions and target tables are constant or built once on first
// use); the count lets sessions check that the embedder follows the
// protocol, so that state added later has a place to live.
static kiln_atomic_int32_t kiln_compiler_init_count = 0;

int kiln_compiler_api_version(void) {
  return KILN_COMPILER_API_VERSION_MAJOR << 16 |
         KILN_COMPILER_API_VERSION_MINOR;
}

kiln_status_t kiln_compiler_global_initialize(void) {
  kiln_atomic_fetch_add_acq_rel(&kiln_compiler_init_count, 1);
  return kiln_ok_status();
}

void kiln_compiler_global_shutdown(void) {
  kiln_atomic_fetch_sub_acq_rel(&kiln_compiler_init_count, 1);
}

void kiln_compiler_enumerate_target_backends(void (*callback)(void* user_data,
                                                              const char* name),
                                             void* user_data) {
  size_t count = 0;
  const kiln_target_backend_t* const* backends = kiln_target_backends(&count);
  for (size_t i = 0; i < count; ++i) callback(user_data, backends[i]->name);
}

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

struct kiln_compiler_session_t {
  kiln_allocator_t allocator;
  kiln_mutex_t mutex;  // guards everything below
  kiln_compiler_options_t options;
  bool output_format_given;
  // Copies of every flag applied: |options| points into them, so they live
  // as long as the session (an invocation's snapshot points into them too).
  char** flags;
  size_t flag_count;
  size_t flag_capacity;
};

kiln_status_t kiln_compiler_session_create(
    kiln_allocator_t allocator, kiln_compiler_session_t** out_session) {
  *out_session = NULL;
  if (kiln_atomic_load_acquire(&kiln_compiler_init_count) <= 0) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "kiln_compiler_global_initialize was not called");
  }
  kiln_compiler_session_t* session = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*session), (void**)&session));
  session->allocator = allocator;
  kiln_mutex_initialize(&session->mutex);
  kiln_compiler_options_initialize(&session->options);
  *out_session = session;
  return kiln_ok_status();
}

void kiln_compiler_session_destroy(kiln_compiler_session_t* session) {
  if (!session) return;
  for (size_t i = 0; i < session->flag_count; ++i) {
    kiln_allocator_free(session->allocator, session->flags[i]);
  }
  kiln_allocator_free(session->allocator, session->flags);
  kiln_mutex_deinitialize(&session->mutex);
  kiln_allocator_free(session->allocator, session);
}

// Keeps a copy of |flag| in the session; |*out_copy| points at it.
static kiln_status_t kiln_compiler_session_keep_flag(
    kiln_compiler_session_t* session, const char* flag, char** out_copy) {
  if (session->flag_count == session->flag_capacity) {
    size_t capacity = session->flag_capacity ? session->flag_capacity * 2 : 8;
    void* grown = session->flags;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        session->allocator, capacity * sizeof(char*), &grown));
    session->flags = (char**)grown;
    session->flag_capacity = capacity;
  }
  size_t length = strlen(flag);
  char* copy = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(session->allocator, length + 1, (void**)&copy));
  memcpy(copy, flag, length + 1);
  session->flags[session->flag_count++] = copy;
  *out_copy = copy;
  return kiln_ok_status();
}

static kiln_status_t kiln_compiler_session_apply_flag(
    kiln_compiler_session_t* session, const char* flag) {
  char* copy = NULL;
  KILN_RETURN_IF_ERROR(kiln_compiler_session_keep_flag(session, flag, &copy));
  // Parsed into a scratch copy: a rejected flag leaves the options as they
  // were (and nothing pointing at its string, which is dropped).
  kiln_compiler_options_t options = session->options;
  bool consumed = false;
  kiln_status_t status =
      kiln_compiler_options_parse_flag(&options, copy, &consumed);
  if (!status && !consumed) {
    status = kiln_make_status(KILN_STATUS_NOT_FOUND,
                              "unknown compiler flag '%s'", flag);
  }
  if (status) {
    kiln_allocator_free(session->allocator, copy);
    --session->flag_count;
    return status;
  }
  session->options = options;
  if (!strncmp(flag, "--output-format=", 16)) {
    session->output_format_given = true;
  }
  // --compile-to prints MLIR (kiln-compile's rule, for every embedder).
  if (session->options.compile_to) {
    if (!session->output_format_given) {
      session->options.output_format = KILN_COMPILER_OUTPUT_MLIR;
    } else if (session->options.output_format != KILN_COMPILER_OUTPUT_MLIR) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "--compile-to prints MLIR "
                              "(--output-format=mlir)");
    }
  }
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_session_set_flags(kiln_compiler_session_t* session,
                                              int argc,
                                              const char* const* argv) {
  kiln_status_t status = kiln_ok_status();
  kiln_mutex_lock(&session->mutex);
  for (int i = 0; i < argc && !status; ++i) {
    status = kiln_compiler_session_apply_flag(session, argv[i]);
  }
  kiln_mutex_unlock(&session->mutex);
  return status;
}

bool kiln_compiler_is_compiler_flag(const char* flag) {
  // Parsed into scratch options: the one flag table (driver.c) decides.
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  bool consumed = false;
  kiln_status_free(kiln_compiler_options_parse_flag(&options, flag, &consumed));
  return consumed;
}

void kiln_compiler_session_get_flags(kiln_compiler_session_t* session,
                                     void (*on_flag)(void* user_data,
                                                     const char* flag),
                                     void* user_data) {
  kiln_mutex_lock(&session->mutex);
  for (size_t i = 0; i < session->flag_count; ++i) {
    on_flag(user_data, session->flags[i]);
  }
  kiln_mutex_unlock(&session->mutex);
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

struct kiln_compiler_source_t {
  kiln_allocator_t allocator;
  char* name;        // owned
  const char* data;  // owned_data, mapped, or the caller's bytes
  size_t length;
  char* owned_data;
  void* mapped;  // a read-only mapping of |length| bytes, or NULL
};

static kiln_status_t kiln_compiler_source_create(
    kiln_allocator_t allocator, const char* name,
    kiln_compiler_source_t** out_source) {
  *out_source = NULL;
  kiln_compiler_source_t* source = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*source), (void**)&source));
  source->allocator = allocator;
  size_t length = strlen(name);
  kiln_status_t status =
      kiln_allocator_malloc(allocator, length + 1, (void**)&source->name);
  if (status) {
    kiln_allocator_free(allocator, source);
    return status;
  }
  memcpy(source->name, name, length + 1);
  *out_source = source;
  return kiln_ok_status();
}

// Maps a regular file of at least 1 MiB read-only (a model of hundreds of
// MB: reading it copied every byte once more, 1 s of BERT's compile);
// returns NULL for anything else (stdin, pipes, small or unmappable
// files), which are read instead.
static void* kiln_compiler_map_file(const char* path, size_t* out_length) {
  *out_length = 0;
  if (strcmp(path, "-") == 0) return NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  void* mapped = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size >= (off_t)(1 << 20) && (uint64_t)st.st_size < SIZE_MAX) {
    mapped = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      mapped = NULL;
    } else {
      *out_length = (size_t)st.st_size;
    }
  }
  close(fd);
  return mapped;
}

kiln_status_t kiln_compiler_source_open_file(
    kiln_compiler_session_t* session, const char* path,
    kiln_compiler_source_t** out_source) {
  *out_source = NULL;
  size_t mapped_length = 0;
  void* mapped = kiln_compiler_map_file(path, &mapped_length);
  if (mapped) {
    kiln_status_t status =
        kiln_compiler_source_create(session->allocator, path, out_source);
    if (status) {
      munmap(mapped, mapped_length);
      return status;
    }
    (*out_source)->mapped = mapped;
    (*out_source)->data = (const char*)mapped;
    (*out_source)->length = mapped_length;
    return kiln_ok_status();
  }
  char* text = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(
      kiln_compiler_read_file(path, session->allocator, &text, &size));
  kiln_compiler_source_t* source = NULL;
  kiln_status_t status = kiln_compiler_source_create(
      session->allocator, strcmp(path, "-") == 0 ? "<stdin>" : path, &source);
  if (status) {
    kiln_allocator_free(session->allocator, text);
    return status;
  }
  source->owned_data = text;
  source->data = text;
  source->length = size;
  *out_source = source;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_source_wrap_buffer(
    kiln_compiler_session_t* session, const char* name, const void* data,
    size_t length, kiln_compiler_source_t** out_source) {
  KILN_RETURN_IF_ERROR(
      kiln_compiler_source_create(session->allocator, name, out_source));
  (*out_source)->data = (const char*)data;
  (*out_source)->length = length;
  return kiln_ok_status();
}

void kiln_compiler_source_destroy(kiln_compiler_source_t* source) {
  if (!source) return;
  if (source->mapped) munmap(source->mapped, source->length);
  kiln_allocator_free(source->allocator, source->owned_data);
  kiln_allocator_free(source->allocator, source->name);
  kiln_allocator_free(source->allocator, source);
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

struct kiln_compiler_output_t {
  kiln_allocator_t allocator;
  // File outputs: |file| until closed; |path| for messages.
  FILE* file;
  bool is_file;
  bool closed;
  bool write_failed;
  char* path;
  // Memory outputs: |length| bytes plus a NUL in |capacity|.
  uint8_t* data;
  size_t length;
  size_t capacity;
};

kiln_status_t kiln_compiler_output_open_file(
    const char* path, kiln_compiler_output_t** out_output) {
  *out_output = NULL;
  kiln_allocator_t allocator = kiln_allocator_system();
  kiln_compiler_output_t* output = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*output), (void**)&output));
  output->allocator = allocator;
  output->is_file = true;
  size_t length = strlen(path);
  kiln_status_t status =
      kiln_allocator_malloc(allocator, length + 1, (void**)&output->path);
  if (!status) {
    memcpy(output->path, path, length + 1);
    output->file = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!output->file) {
      status = kiln_make_status(KILN_STATUS_UNAVAILABLE,
                                "cannot open '%s' for writing", path);
    }
  }
  if (status) {
    kiln_allocator_free(allocator, output->path);
    kiln_allocator_free(allocator, output);
    return status;
  }
  *out_output = output;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_output_open_memory(
    kiln_allocator_t allocator, kiln_compiler_output_t** out_output) {
  *out_output = NULL;
  kiln_compiler_output_t* output = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*output), (void**)&output));
  output->allocator = allocator;
  *out_output = output;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_output_write(kiln_compiler_output_t* output,
                                         const void* data, size_t length) {
  if (output->is_file) {
    if (output->closed) {
      return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "output '%s' is closed", output->path);
    }
    if (fwrite(data, 1, length, output->file) != length) {
      output->write_failed = true;
      return kiln_make_status(KILN_STATUS_DATA_LOSS, "error writing '%s'",
                              output->path);
    }
    return kiln_ok_status();
  }
  if (output->length + length + 1 > output->capacity) {
    size_t capacity = output->capacity ? output->capacity : 4096;
    while (capacity < output->length + length + 1) capacity *= 2;
    void* grown = output->data;
    KILN_RETURN_IF_ERROR(
        kiln_allocator_realloc(output->allocator, capacity, &grown));
    output->data = (uint8_t*)grown;
    output->capacity = capacity;
  }
  if (length) memcpy(output->data + output->length, data, length);
  output->length += length;
  output->data[output->length] = 0;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_output_map_memory(kiln_compiler_output_t* output,
                                              const void** out_data,
                                              size_t* out_length) {
  *out_data = NULL;
  *out_length = 0;
  if (output->is_file) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "output '%s' is a file, not memory", output->path);
  }
  *out_data = output->data ? (const void*)output->data : (const void*)"";
  *out_length = output->length;
  return kiln_ok_status();
}

kiln_status_t kiln_compiler_output_close(kiln_compiler_output_t* output) {
  if (!output->is_file || output->closed) return kiln_ok_status();
  output->closed = true;
  bool ok = !output->write_failed;
  if (output->file == stdout) {
    ok = fflush(stdout) == 0 && ok;
  } else {
    ok = fclose(output->file) == 0 && ok;
  }
  output->file = NULL;
  if (!ok) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS, "error writing '%s'",
                            output->path);
  }
  return kiln_ok_status();
}

void kiln_compiler_output_destroy(kiln_compiler_output_t* output) {
  if (!output) return;
  kiln_status_free(kiln_compiler_output_close(output));
  kiln_allocator_free(output->allocator, output->data);
  kiln_allocator_free(output->allocator, output->path);
  kiln_allocator_free(output->allocator, output);
}

//===----------------------------------------------------------------------===//
// Invocations
//===----------------------------------------------------------------------===//

struct kiln_compiler_invocation_t {
  kiln_compiler_session_t* session;
  // The session's options when the invocation was made (its strings live in
  // the session).
  kiln_compiler_options_t options;
  kiln_compiler_job_t* job;
  int last_phase;
  kiln_compiler_diagnostic_callback_t callback;
  void* callback_data;
  FILE* diagnostic_stream;
  bool diagnostic_stream_set;
};

// Delivers one diagnostic to the callback and the stream.
static void kiln_compiler_invocation_diagnostic(
    void* user_data, kiln_ir_context_t* context,
    const kiln_ir_diagnostic_t* diagnostic) {
  kiln_compiler_invocation_t* invocation =
      (kiln_compiler_invocation_t*)user_data;
  FILE* stream = invocation->diagnostic_stream_set
                     ? invocation->diagnostic_stream
                     : (invocation->callback ? NULL : stderr);
  if (stream) kiln_ir_diagnostic_print(context, diagnostic, stream);
  if (!invocation->callback) return;
  // Both enums list error, warning, note, remark in that order.
  _Static_assert(
      (int)KILN_COMPILER_DIAGNOSTIC_REMARK == (int)KILN_IR_SEVERITY_REMARK &&
          (int)KILN_COMPILER_DIAGNOSTIC_NOTE == (int)KILN_IR_SEVERITY_NOTE &&
          (int)KILN_COMPILER_DIAGNOSTIC_WARNING ==
              (int)KILN_IR_SEVERITY_WARNING,
      "severity enums differ");
  kiln_compiler_diagnostic_t d = {
      .severity = (kiln_compiler_diagnostic_severity_t)diagnostic->severity,
      .file = "",
      .message = diagnostic->message,
  };
  const kiln_ir_location_t* at =
      kiln_ir_location_find_file(diagnostic->location);
  if (at) {
    d.file = at->file.data;  // interned: NUL-terminated
    d.line = at->line;
    d.column = at->column;
  }
  invocation->callback(invocation->callback_data, &d);
}

kiln_status_t kiln_compiler_invocation_create(
    kiln_compiler_session_t* session,
    kiln_compiler_invocation_t** out_invocation) {
  *out_invocation = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      session->allocator, sizeof(*invocation), (void**)&invocation));
  invocation->session = session;
  kiln_mutex_lock(&session->mutex);
  invocation->options = session->options;
  kiln_mutex_unlock(&session->mutex);
  invocation->last_phase =
      kiln_compiler_options_last_phase(&invocation->options);
  kiln_status_t status = kiln_compiler_job_create(
      &invocation->options, session->allocator, &invocation->job);
  if (status) {
    kiln_allocator_free(session->allocator, invocation);
    return status;
  }
  kiln_compiler_job_set_diagnostic_handler(
      invocation->job, kiln_compiler_invocation_diagnostic, invocation);
  *out_invocation = invocation;
  return kiln_ok_status();
}

void kiln_compiler_invocation_destroy(kiln_compiler_invocation_t* invocation) {
  if (!invocation) return;
  kiln_compiler_job_destroy(invocation->job);
  kiln_allocator_free(invocation->session->allocator, invocation);
}

void kiln_compiler_invocation_set_diagnostic_callback(
    kiln_compiler_invocation_t* invocation,
    kiln_compiler_diagnostic_callback_t callback, void* user_data) {
  invocation->callback = callback;
  invocation->callback_data = user_data;
}

void kiln_compiler_invocation_set_diagnostic_stream(
    kiln_compiler_invocation_t* invocation, FILE* stream) {
  invocation->diagnostic_stream = stream;
  invocation->diagnostic_stream_set = true;
}

void kiln_compiler_invocation_set_dump_stream(
    kiln_compiler_invocation_t* invocation, FILE* stream) {
  invocation->options.dump_stream = stream;
  kiln_compiler_job_set_streams(invocation->job, NULL, stream);
}

kiln_status_t kiln_compiler_invocation_set_compile_to_phase(
    kiln_compiler_invocation_t* invocation, const char* phase) {
  int index = kiln_compiler_phase_lookup(phase);
  if (index < 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown phase '%s' (input, structured, "
                            "form-dispatch-regions, vmvx-codegen, schedule, "
                            "end)",
                            phase ? phase : "(null)");
  }
  invocation->last_phase = index;
  return kiln_ok_status();
}

static bool kiln_compiler_is_blank(const char* text, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (!isspace((unsigned char)text[i])) return false;
  }
  return true;
}

kiln_status_t kiln_compiler_invocation_parse_source(
    kiln_compiler_invocation_t* invocation, kiln_compiler_source_t* source) {
  if (kiln_compiler_is_blank(source->data, source->length)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "input '%s' is empty",
                            source->name);
  }
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_COMPILE);
  kiln_status_t status = kiln_compiler_job_parse(invocation->job, source->name,
                                                 source->data, source->length);
  KILN_TRACE_ZONE_END(z0);
  return status;
}

kiln_status_t kiln_compiler_invocation_run_pipeline(
    kiln_compiler_invocation_t* invocation) {
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_COMPILE);
  kiln_status_t status =
      kiln_compiler_job_run(invocation->job, invocation->last_phase);
  KILN_TRACE_ZONE_END(z0);
  return status;
}

// Takes |*bytes| (|length| bytes from |allocator|, alignment 0) as the
// contents of |output| when it is an empty memory output of that
// allocator: a model's module is hundreds of MB, and copying it costs a
// page fault per 4 KiB on top of the copy. Leaves *bytes NULL when taken.
static void kiln_compiler_output_adopt(kiln_compiler_output_t* output,
                                       kiln_allocator_t allocator,
                                       uint8_t** bytes, size_t length) {
  if (output->is_file || output->length || !*bytes ||
      output->allocator.self != allocator.self ||
      output->allocator.realloc != allocator.realloc) {
    return;
  }
  void* grown = *bytes;  // room for the NUL that memory outputs keep
  kiln_status_t status = kiln_allocator_realloc(allocator, length + 1, &grown);
  if (status) {
    kiln_status_free(status);
    return;
  }
  kiln_allocator_free(output->allocator, output->data);
  output->data = (uint8_t*)grown;
  output->length = length;
  output->capacity = length + 1;
  output->data[length] = 0;
  *bytes = NULL;
}

// Emits |format| from the job and writes it to |output|.
static kiln_status_t kiln_compiler_invocation_emit(
    kiln_compiler_invocation_t* invocation,
    kiln_compiler_output_format_t format, kiln_compiler_output_t* output) {
  kiln_allocator_t allocator = invocation->session->allocator;
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_TRACE_ZONE_BEGIN_NAMED(z0, KILN_TRACE_ZONE_COMPILE);
  kiln_status_t status = kiln_compiler_job_emit(invocation->job, format,
                                                allocator, &bytes, &length);
  KILN_TRACE_ZONE_END(z0);
  if (!status) kiln_compiler_output_adopt(output, allocator, &bytes, length);
  if (!status && bytes) {
    status = kiln_compiler_output_write(output, bytes, length);
  }
  kiln_allocator_free(allocator, bytes);
  return status;
}

kiln_status_t kiln_compiler_invocation_output(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output) {
  return kiln_compiler_invocation_emit(
      invocation, invocation->options.output_format, output);
}

kiln_status_t kiln_compiler_invocation_output_ir(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output) {
  return kiln_compiler_invocation_emit(invocation, KILN_COMPILER_OUTPUT_MLIR,
                                       output);
}

kiln_status_t kiln_compiler_invocation_output_module(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output) {
  return kiln_compiler_invocation_emit(invocation, KILN_COMPILER_OUTPUT_MODULE,
                                       output);
}

kiln_status_t kiln_compiler_invocation_output_vm_asm(
    kiln_compiler_invocation_t* invocation, kiln_compiler_output_t* output) {
  return kiln_compiler_invocation_emit(invocation, KILN_COMPILER_OUTPUT_VM_ASM,
                                       output);
}
