#include "runtime/base/trace_recorder.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/base/atomics.h"
#include "runtime/base/sync.h"
#include "runtime/base/time.h"

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

typedef enum kiln_trace_record_kind_e {
  KILN_TRACE_RECORD_BEGIN = 1,     // name: static pointer
  KILN_TRACE_RECORD_BEGIN_INLINE,  // name: |length| bytes inline
  KILN_TRACE_RECORD_END,
  KILN_TRACE_RECORD_ARG,      // name: key
  KILN_TRACE_RECORD_COUNTER,  // name, series
  KILN_TRACE_RECORD_MESSAGE,  // text inline like BEGIN_INLINE
} kiln_trace_record_kind_t;

// Events are variable-length runs of 64-bit words (half the memory of
// fixed-size records: writing fresh memory is most of what recording costs):
//   BEGIN         header, time, name pointer
//   BEGIN_INLINE  header, time, name bytes
//   END           header, time
//   ARG           header, key pointer, value
//   COUNTER       header, time, name pointer, series pointer, value
//   MESSAGE       header, time, text bytes
// The header holds the kind (low 8 bits) and the text length (bits 16-31).
#define KILN_TRACE_CHUNK_WORDS 8190
// Longer dynamic names and messages are cut (they are labels, not data).
#define KILN_TRACE_MAX_INLINE_TEXT 256

static inline uint64_t kiln_trace_header(uint32_t kind, size_t length) {
  return (uint64_t)kind | ((uint64_t)length << 16);
}
static inline uint32_t kiln_trace_header_kind(uint64_t header) {
  return (uint32_t)(header & 0xFF);
}
static inline uint32_t kiln_trace_header_length(uint64_t header) {
  return (uint32_t)((header >> 16) & 0xFFFF);
}

// Words taken by an event of |kind| with |length| text bytes.
static uint32_t kiln_trace_event_words(uint32_t kind, size_t length) {
  switch (kind) {
    case KILN_TRACE_RECORD_BEGIN:
    case KILN_TRACE_RECORD_ARG:
      return 3;
    case KILN_TRACE_RECORD_END:
      return 2;
    case KILN_TRACE_RECORD_COUNTER:
      return 5;
    default:  // BEGIN_INLINE, MESSAGE
      return 2 + (uint32_t)((length + 7) / 8);
  }
}

typedef struct kiln_trace_chunk_t {
  // Written by the owning thread, read by the writer: |next| is published
  // only after |count| (in words) is final, and |count| only after the
  // words it covers.
  kiln_atomic_ptr(struct kiln_trace_chunk_t*) next;
  kiln_atomic_uint32_t count;
  uint64_t words[KILN_TRACE_CHUNK_WORDS];
} kiln_trace_chunk_t;

// The events of one thread (for one recorder).
typedef struct kiln_trace_thread_buffer_t {
  struct kiln_trace_thread_buffer_t* next;  // recorder's list, under mutex
  int64_t tid;
  char name[64];
  kiln_trace_chunk_t* head;
  // Owner-thread only.
  kiln_trace_chunk_t* tail;
  uint32_t tail_count;
  bool full;  // stop recording: what is kept stays a prefix
} kiln_trace_thread_buffer_t;

struct kiln_trace_recorder_t {
  kiln_allocator_t allocator;
  kiln_trace_sink_t sink;
  uint64_t serial;  // tells this recorder's thread buffers from older ones
  int64_t base_ns;
  size_t max_buffer_bytes;
  kiln_atomic_uint64_t buffer_bytes;
  kiln_atomic_uint64_t dropped;
  kiln_mutex_t mutex;  // guards |threads| and |spare|
  kiln_trace_thread_buffer_t* threads;
  // Chunks written once at creation (options.preallocate_bytes), handed out
  // before any new memory: see kiln_trace_chunk_allocate.
  kiln_trace_chunk_t* spare;
  char process_name[64];
};

static kiln_atomic_uint64_t kiln_trace_next_serial = 1;

// The calling thread's buffer for the recorder with serial |tls_serial|.
static _Thread_local uint64_t kiln_trace_tls_serial = 0;
static _Thread_local kiln_trace_thread_buffer_t* kiln_trace_tls_buffer = NULL;

// Fresh buffer memory would otherwise fault one page at a time on the hot
// path (on a VM several microseconds each, most of what recording costs);
// one madvise maps the whole chunk at once. Failing (an older kernel) only
// loses the speed-up.
static void kiln_trace_chunk_prefault(void* data, size_t size) {
#if defined(MADV_POPULATE_WRITE)
  uintptr_t page = 4096;
  uintptr_t begin = ((uintptr_t)data + page - 1) & ~(page - 1);
  uintptr_t end = ((uintptr_t)data + size) & ~(page - 1);
  if (end > begin) madvise((void*)begin, end - begin, MADV_POPULATE_WRITE);
#else
  (void)data, (void)size;
#endif
}

// A chunk of new memory, its pages mapped, or NULL.
static kiln_trace_chunk_t* kiln_trace_chunk_allocate_new(
    kiln_trace_recorder_t* recorder) {
  kiln_trace_chunk_t* chunk = NULL;
  kiln_status_t status = kiln_allocator_malloc(recorder->allocator,
                                               sizeof(*chunk), (void**)&chunk);
  if (status) {
    kiln_status_free(status);
    return NULL;
  }
  kiln_trace_chunk_prefault(chunk, sizeof(*chunk));
  return chunk;
}

// The next chunk for a thread's buffer, or NULL when the recorder is full.
// Preallocated chunks come first: on a virtual machine the first write to
// a page costs several microseconds even once it is mapped (about 100 ns
// per zone, more than the rest of recording), so the recorder pays that at
// creation, outside the traced work, for the first preallocate_bytes.
static kiln_trace_chunk_t* kiln_trace_chunk_allocate(
    kiln_trace_recorder_t* recorder) {
  uint64_t used = kiln_atomic_fetch_add_relaxed(&recorder->buffer_bytes,
                                                sizeof(kiln_trace_chunk_t));
  if (used + sizeof(kiln_trace_chunk_t) > recorder->max_buffer_bytes) {
    return NULL;
  }
  kiln_mutex_lock(&recorder->mutex);
  kiln_trace_chunk_t* chunk = recorder->spare;
  if (chunk) recorder->spare = kiln_atomic_load_relaxed(&chunk->next);
  kiln_mutex_unlock(&recorder->mutex);
  if (!chunk) chunk = kiln_trace_chunk_allocate_new(recorder);
  if (!chunk) return NULL;
  kiln_atomic_init(&chunk->next, NULL);
  kiln_atomic_init(&chunk->count, 0);
  return chunk;
}

static void kiln_trace_free_chunks(kiln_trace_recorder_t* recorder,
                                   kiln_trace_chunk_t* chunk) {
  while (chunk) {
    kiln_trace_chunk_t* next = kiln_atomic_load_acquire(&chunk->next);
    kiln_allocator_free(recorder->allocator, chunk);
    chunk = next;
  }
}

// First event of this thread for |recorder|: one allocation and one lock.
static kiln_trace_thread_buffer_t* kiln_trace_register_thread(
    kiln_trace_recorder_t* recorder) {
  kiln_trace_thread_buffer_t* buffer = NULL;
  kiln_status_t status = kiln_allocator_calloc(
      recorder->allocator, sizeof(*buffer), (void**)&buffer);
  if (status) {
    kiln_status_free(status);
    return NULL;
  }
  buffer->head = buffer->tail = kiln_trace_chunk_allocate(recorder);
  if (!buffer->head) buffer->full = true;
  buffer->tid = (int64_t)syscall(SYS_gettid);
  const char* name = kiln_trace_thread_name();
  if (name[0]) {
    strncpy(buffer->name, name, sizeof(buffer->name) - 1);
  } else if (pthread_getname_np(pthread_self(), buffer->name,
                                sizeof(buffer->name)) != 0) {
    buffer->name[0] = 0;
  }
  kiln_mutex_lock(&recorder->mutex);
  buffer->next = recorder->threads;
  recorder->threads = buffer;
  kiln_mutex_unlock(&recorder->mutex);
  kiln_trace_tls_serial = recorder->serial;
  kiln_trace_tls_buffer = buffer;
  return buffer;
}

// Room for |n| words in the calling thread's buffer, or NULL (dropped).
static uint64_t* kiln_trace_reserve(kiln_trace_recorder_t* recorder,
                                    kiln_trace_thread_buffer_t** out,
                                    uint32_t n) {
  kiln_trace_thread_buffer_t* buffer =
      kiln_trace_tls_serial == recorder->serial
          ? kiln_trace_tls_buffer
          : kiln_trace_register_thread(recorder);
  if (buffer && !buffer->full &&
      buffer->tail_count + n > KILN_TRACE_CHUNK_WORDS) {
    kiln_trace_chunk_t* chunk = kiln_trace_chunk_allocate(recorder);
    if (chunk) {
      kiln_atomic_store_release(&buffer->tail->next, chunk);
      buffer->tail = chunk;
      buffer->tail_count = 0;
    } else {
      buffer->full = true;
    }
  }
  if (!buffer || buffer->full) {
    kiln_atomic_fetch_add_relaxed(&recorder->dropped, 1);
    return NULL;
  }
  *out = buffer;
  return &buffer->tail->words[buffer->tail_count];
}

static void kiln_trace_commit(kiln_trace_thread_buffer_t* buffer, uint32_t n) {
  buffer->tail_count += n;
  kiln_atomic_store_release(&buffer->tail->count, buffer->tail_count);
}

// Appends an event whose text is copied into the words after its time.
static void kiln_trace_append_inline(kiln_trace_recorder_t* recorder,
                                     uint32_t kind, const char* text,
                                     size_t length, int64_t time_ns) {
  if (length > KILN_TRACE_MAX_INLINE_TEXT) length = KILN_TRACE_MAX_INLINE_TEXT;
  uint32_t n = kiln_trace_event_words(kind, length);
  kiln_trace_thread_buffer_t* buffer = NULL;
  uint64_t* w = kiln_trace_reserve(recorder, &buffer, n);
  if (!w) return;
  w[0] = kiln_trace_header(kind, length);
  w[1] = (uint64_t)time_ns;
  if (length) memcpy(&w[2], text, length);
  kiln_trace_commit(buffer, n);
}

//===----------------------------------------------------------------------===//
// Sink callbacks
//===----------------------------------------------------------------------===//

static void kiln_trace_recorder_zone_begin(void* user_data, const char* name,
                                           size_t name_length,
                                           int name_is_static, const char* file,
                                           int line, int64_t time_ns) {
  kiln_trace_recorder_t* recorder = (kiln_trace_recorder_t*)user_data;
  (void)file, (void)line;
  if (!name_is_static || name_length > 0xFFFF) {
    kiln_trace_append_inline(recorder, KILN_TRACE_RECORD_BEGIN_INLINE, name,
                             name_length, time_ns);
    return;
  }
  kiln_trace_thread_buffer_t* buffer = NULL;
  uint64_t* w = kiln_trace_reserve(recorder, &buffer, 3);
  if (!w) return;
  w[0] = kiln_trace_header(KILN_TRACE_RECORD_BEGIN, name_length);
  w[1] = (uint64_t)time_ns;
  w[2] = (uint64_t)(uintptr_t)name;
  kiln_trace_commit(buffer, 3);
}

static void kiln_trace_recorder_zone_end(void* user_data, int64_t time_ns) {
  kiln_trace_recorder_t* recorder = (kiln_trace_recorder_t*)user_data;
  kiln_trace_thread_buffer_t* buffer = NULL;
  uint64_t* w = kiln_trace_reserve(recorder, &buffer, 2);
  if (!w) return;
  w[0] = kiln_trace_header(KILN_TRACE_RECORD_END, 0);
  w[1] = (uint64_t)time_ns;
  kiln_trace_commit(buffer, 2);
}

static void kiln_trace_recorder_zone_arg(void* user_data, const char* key,
                                         int64_t value) {
  kiln_trace_recorder_t* recorder = (kiln_trace_recorder_t*)user_data;
  kiln_trace_thread_buffer_t* buffer = NULL;
  uint64_t* w = kiln_trace_reserve(recorder, &buffer, 3);
  if (!w) return;
  w[0] = kiln_trace_header(KILN_TRACE_RECORD_ARG, 0);
  w[1] = (uint64_t)(uintptr_t)key;
  w[2] = (uint64_t)value;
  kiln_trace_commit(buffer, 3);
}

static void kiln_trace_recorder_counter(void* user_data, const char* name,
                                        const char* series, int64_t value,
                                        int64_t time_ns) {
  kiln_trace_recorder_t* recorder = (kiln_trace_recorder_t*)user_data;
  kiln_trace_thread_buffer_t* buffer = NULL;
  uint64_t* w = kiln_trace_reserve(recorder, &buffer, 5);
  if (!w) return;
  w[0] = kiln_trace_header(KILN_TRACE_RECORD_COUNTER, 0);
  w[1] = (uint64_t)time_ns;
  w[2] = (uint64_t)(uintptr_t)name;
  w[3] = (uint64_t)(uintptr_t)series;
  w[4] = (uint64_t)value;
  kiln_trace_commit(buffer, 5);
}

static void kiln_trace_recorder_message(void* user_data, const char* text,
                                        int64_t time_ns) {
  kiln_trace_append_inline((kiln_trace_recorder_t*)user_data,
                           KILN_TRACE_RECORD_MESSAGE, text, strlen(text),
                           time_ns);
}

//===----------------------------------------------------------------------===//
// Lifetime
//===----------------------------------------------------------------------===//

kiln_status_t kiln_trace_recorder_create(
    const kiln_trace_recorder_options_t* options, kiln_allocator_t allocator,
    kiln_trace_recorder_t** out_recorder) {
  *out_recorder = NULL;
  kiln_trace_recorder_t* recorder = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*recorder), (void**)&recorder));
  recorder->allocator = allocator;
  recorder->serial = kiln_atomic_fetch_add_relaxed(&kiln_trace_next_serial, 1);
  recorder->base_ns = kiln_time_now_ns();
  recorder->max_buffer_bytes = options && options->max_buffer_bytes
                                   ? options->max_buffer_bytes
                                   : ((size_t)256 << 20);
  kiln_atomic_init(&recorder->buffer_bytes, 0);
  kiln_atomic_init(&recorder->dropped, 0);
  kiln_mutex_initialize(&recorder->mutex);
  const char* process_name =
      options && options->process_name ? options->process_name : "kiln";
  strncpy(recorder->process_name, process_name,
          sizeof(recorder->process_name) - 1);
  recorder->sink.user_data = recorder;
  recorder->sink.zone_begin = kiln_trace_recorder_zone_begin;
  recorder->sink.zone_end = kiln_trace_recorder_zone_end;
  recorder->sink.zone_arg = kiln_trace_recorder_zone_arg;
  recorder->sink.counter = kiln_trace_recorder_counter;
  recorder->sink.message = kiln_trace_recorder_message;
  size_t preallocate = options && options->preallocate_bytes
                           ? options->preallocate_bytes
                           : ((size_t)4 << 20);
  if (preallocate > recorder->max_buffer_bytes) {
    preallocate = recorder->max_buffer_bytes;
  }
  for (size_t bytes = 0; bytes + sizeof(kiln_trace_chunk_t) <= preallocate;
       bytes += sizeof(kiln_trace_chunk_t)) {
    kiln_trace_chunk_t* chunk = kiln_trace_chunk_allocate_new(recorder);
    if (!chunk) break;                              // only the speed-up is lost
    memset(chunk->words, 0, sizeof(chunk->words));  // the first write
    kiln_atomic_init(&chunk->next, recorder->spare);
    recorder->spare = chunk;
  }
  *out_recorder = recorder;
  return kiln_ok_status();
}

void kiln_trace_recorder_start(kiln_trace_recorder_t* recorder) {
  kiln_trace_set_sink(&recorder->sink);
}

void kiln_trace_recorder_stop(kiln_trace_recorder_t* recorder) {
  if (kiln_trace_current_sink() == &recorder->sink) kiln_trace_set_sink(NULL);
}

const kiln_trace_sink_t* kiln_trace_recorder_sink(
    kiln_trace_recorder_t* recorder) {
  return &recorder->sink;
}

uint64_t kiln_trace_recorder_dropped_event_count(
    kiln_trace_recorder_t* recorder) {
  return kiln_atomic_load_relaxed(&recorder->dropped);
}

void kiln_trace_recorder_release(kiln_trace_recorder_t* recorder) {
  if (!recorder) return;
  kiln_trace_recorder_stop(recorder);
  kiln_trace_thread_buffer_t* buffer = recorder->threads;
  while (buffer) {
    kiln_trace_thread_buffer_t* next_buffer = buffer->next;
    kiln_trace_free_chunks(recorder, buffer->head);
    kiln_allocator_free(recorder->allocator, buffer);
    buffer = next_buffer;
  }
  kiln_trace_free_chunks(recorder, recorder->spare);
  kiln_mutex_deinitialize(&recorder->mutex);
  kiln_allocator_free(recorder->allocator, recorder);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

// Zones deeper than this are dropped from the output (their events skipped).
#define KILN_TRACE_MAX_DEPTH 128
#define KILN_TRACE_MAX_ARGS 8

typedef struct kiln_trace_open_zone_t {
  const char* name;
  uint32_t name_length;
  int64_t begin_ns;
  uint32_t arg_count;
  const char* keys[KILN_TRACE_MAX_ARGS];
  int64_t values[KILN_TRACE_MAX_ARGS];
} kiln_trace_open_zone_t;

typedef struct kiln_trace_writer_t {
  FILE* stream;
  const kiln_trace_recorder_t* recorder;
  int64_t pid;
  bool first;
  kiln_trace_open_zone_t stack[KILN_TRACE_MAX_DEPTH];
} kiln_trace_writer_t;

static void kiln_trace_write_string(FILE* stream, const char* text,
                                    size_t length) {
  fputc('"', stream);
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\') {
      fputc('\\', stream);
      fputc(c, stream);
    } else if (c < 0x20) {
      fprintf(stream, "\\u%04x", c);
    } else {
      fputc(c, stream);
    }
  }
  fputc('"', stream);
}

// Microseconds with exact nanosecond decimals, so that a nested zone never
// appears to stick out of its parent through rounding.
static void kiln_trace_write_us(FILE* stream, int64_t ns) {
  if (ns < 0) ns = 0;
  fprintf(stream, "%" PRId64 ".%03d", ns / 1000, (int)(ns % 1000));
}

static void kiln_trace_write_event_head(kiln_trace_writer_t* w,
                                        const char* phase, int64_t tid) {
  fputs(w->first ? "\n" : ",\n", w->stream);
  w->first = false;
  fprintf(w->stream, "{\"ph\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%" PRId64,
          phase, w->pid, tid);
}

static void kiln_trace_write_metadata(kiln_trace_writer_t* w, int64_t tid,
                                      const char* what, const char* name) {
  kiln_trace_write_event_head(w, "M", tid);
  fprintf(w->stream, ",\"name\":\"%s\",\"args\":{\"name\":", what);
  kiln_trace_write_string(w->stream, name, strlen(name));
  fputs("}}", w->stream);
}

static void kiln_trace_write_thread(kiln_trace_writer_t* w,
                                    const kiln_trace_thread_buffer_t* buffer) {
  int64_t base = w->recorder->base_ns;
  int64_t tid = buffer->tid;
  kiln_trace_write_metadata(w, tid, "thread_name",
                            buffer->name[0] ? buffer->name : "thread");
  uint32_t depth = 0;  // may exceed KILN_TRACE_MAX_DEPTH (those are skipped)
  for (const kiln_trace_chunk_t* chunk = buffer->head; chunk;) {
    // |next| first: once it is set, |count| is final.
    const kiln_trace_chunk_t* next =
        kiln_atomic_load_acquire(&((kiln_trace_chunk_t*)chunk)->next);
    uint32_t count =
        kiln_atomic_load_acquire(&((kiln_trace_chunk_t*)chunk)->count);
    for (uint32_t i = 0; i < count;) {
      const uint64_t* r = &chunk->words[i];
      uint32_t kind = kiln_trace_header_kind(r[0]);
      uint32_t length = kiln_trace_header_length(r[0]);
      int64_t time_ns = (int64_t)r[1];
      switch (kind) {
        case KILN_TRACE_RECORD_BEGIN:
        case KILN_TRACE_RECORD_BEGIN_INLINE:
          if (depth < KILN_TRACE_MAX_DEPTH) {
            kiln_trace_open_zone_t* z = &w->stack[depth];
            z->name = kind == KILN_TRACE_RECORD_BEGIN
                          ? (const char*)(uintptr_t)r[2]
                          : (const char*)&r[2];
            z->name_length = length;
            z->begin_ns = time_ns;
            z->arg_count = 0;
          }
          ++depth;
          break;
        case KILN_TRACE_RECORD_ARG:
          if (depth && depth <= KILN_TRACE_MAX_DEPTH) {
            kiln_trace_open_zone_t* z = &w->stack[depth - 1];
            if (z->arg_count < KILN_TRACE_MAX_ARGS) {
              z->keys[z->arg_count] = (const char*)(uintptr_t)r[1];
              z->values[z->arg_count++] = (int64_t)r[2];
            }
          }
          break;
        case KILN_TRACE_RECORD_END:
          if (!depth) break;  // its begin was not recorded
          if (depth <= KILN_TRACE_MAX_DEPTH) {
            const kiln_trace_open_zone_t* z = &w->stack[depth - 1];
            kiln_trace_write_event_head(w, "X", tid);
            fputs(",\"name\":", w->stream);
            kiln_trace_write_string(w->stream, z->name, z->name_length);
            fputs(",\"ts\":", w->stream);
            kiln_trace_write_us(w->stream, z->begin_ns - base);
            fputs(",\"dur\":", w->stream);
            kiln_trace_write_us(w->stream, time_ns - z->begin_ns);
            if (z->arg_count) {
              fputs(",\"args\":{", w->stream);
              for (uint32_t a = 0; a < z->arg_count; ++a) {
                if (a) fputc(',', w->stream);
                kiln_trace_write_string(w->stream, z->keys[a],
                                        strlen(z->keys[a]));
                fprintf(w->stream, ":%" PRId64, z->values[a]);
              }
              fputc('}', w->stream);
            }
            fputc('}', w->stream);
          }
          --depth;
          break;
        case KILN_TRACE_RECORD_COUNTER: {
          const char* name = (const char*)(uintptr_t)r[2];
          const char* series = (const char*)(uintptr_t)r[3];
          kiln_trace_write_event_head(w, "C", tid);
          fputs(",\"name\":", w->stream);
          kiln_trace_write_string(w->stream, name, strlen(name));
          fputs(",\"ts\":", w->stream);
          kiln_trace_write_us(w->stream, time_ns - base);
          fputs(",\"args\":{", w->stream);
          kiln_trace_write_string(w->stream, series, strlen(series));
          fprintf(w->stream, ":%" PRId64 "}}", (int64_t)r[4]);
          break;
        }
        case KILN_TRACE_RECORD_MESSAGE:
          kiln_trace_write_event_head(w, "i", tid);
          fputs(",\"s\":\"t\",\"name\":", w->stream);
          kiln_trace_write_string(w->stream, (const char*)&r[2], length);
          fputs(",\"ts\":", w->stream);
          kiln_trace_write_us(w->stream, time_ns - base);
          fputc('}', w->stream);
          break;
      }
      i += kiln_trace_event_words(kind, length);
    }
    chunk = next;
  }
}

kiln_status_t kiln_trace_recorder_write_json(kiln_trace_recorder_t* recorder,
                                             FILE* stream) {
  kiln_trace_writer_t* w = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(recorder->allocator, sizeof(*w), (void**)&w));
  w->stream = stream;
  w->recorder = recorder;
  w->pid = (int64_t)getpid();
  w->first = true;
  fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", stream);
  kiln_trace_write_metadata(w, w->pid, "process_name", recorder->process_name);
  // Threads registering meanwhile are left out; the list itself only grows
  // at its head, so holding the lock while writing is not needed past here.
  kiln_mutex_lock(&recorder->mutex);
  kiln_trace_thread_buffer_t* threads = recorder->threads;
  kiln_mutex_unlock(&recorder->mutex);
  for (const kiln_trace_thread_buffer_t* b = threads; b; b = b->next) {
    kiln_trace_write_thread(w, b);
  }
  fputs("\n]}\n", stream);
  kiln_allocator_free(recorder->allocator, w);
  if (fflush(stream) != 0 || ferror(stream)) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "writing the trace failed: %s", strerror(errno));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_trace_recorder_write_file(kiln_trace_recorder_t* recorder,
                                             const char* path) {
  FILE* stream = fopen(path, "w");
  if (!stream) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cannot open trace output '%s': %s", path,
                            strerror(errno));
  }
  kiln_status_t status = kiln_trace_recorder_write_json(recorder, stream);
  if (fclose(stream) != 0 && !status) {
    status =
        kiln_make_status(KILN_STATUS_DATA_LOSS, "closing trace output '%s': %s",
                         path, strerror(errno));
  }
  return kiln_status_annotate_f(status, "writing trace '%s'", path);
}
