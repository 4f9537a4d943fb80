#include "runtime/base/status.h"

#include <stdlib.h>
#include <string.h>

struct kiln_status_object_t {
  kiln_status_code_t code;
  const char* file;
  int line;
  size_t message_length;
  char message[];  // NUL-terminated, grows with annotations.
};

// Returned when a status itself cannot be allocated: a sentinel address that
// is never dereferenced as a status object (every accessor checks for it).
static const char kiln_status_oom_message[] = "out of memory";
static char kiln_status_oom_sentinel;
#define KILN_STATUS_OOM ((kiln_status_t)(void*)&kiln_status_oom_sentinel)

static kiln_status_t kiln_status_new(kiln_status_code_t code, const char* file,
                                     int line, size_t length) {
  kiln_status_t status = (kiln_status_t)malloc(sizeof(*status) + length + 1);
  if (!status) return NULL;
  status->code = code == KILN_STATUS_OK ? KILN_STATUS_UNKNOWN : code;
  status->file = file;
  status->line = line;
  status->message_length = length;
  status->message[length] = 0;
  return status;
}

kiln_status_t kiln_status_allocate_vf(kiln_status_code_t code, const char* file,
                                      int line, const char* format,
                                      va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0) length = 0;
  kiln_status_t status = kiln_status_new(code, file, line, (size_t)length);
  if (!status) return KILN_STATUS_OOM;
  vsnprintf(status->message, (size_t)length + 1, format, args);
  return status;
}

kiln_status_t kiln_status_allocate_f(kiln_status_code_t code, const char* file,
                                     int line, const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t status =
      kiln_status_allocate_vf(code, file, line, format, args);
  va_end(args);
  return status;
}

kiln_status_t kiln_status_annotate_f(kiln_status_t status, const char* format,
                                     ...) {
  if (status == NULL || status == KILN_STATUS_OOM) return status;
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int extra = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (extra <= 0) {
    va_end(args);
    return status;
  }
  size_t old_length = status->message_length;
  size_t new_length = old_length + 2 + (size_t)extra;
  kiln_status_t grown =
      (kiln_status_t)realloc(status, sizeof(*status) + new_length + 1);
  if (!grown) {
    va_end(args);
    return status;  // keep the original error rather than lose it
  }
  memcpy(grown->message + old_length, "; ", 2);
  vsnprintf(grown->message + old_length + 2, (size_t)extra + 1, format, args);
  grown->message_length = new_length;
  va_end(args);
  return grown;
}

kiln_status_code_t kiln_status_code(kiln_status_t status) {
  if (status == KILN_STATUS_OOM) return KILN_STATUS_RESOURCE_EXHAUSTED;
  return status ? status->code : KILN_STATUS_OK;
}

const char* kiln_status_message(kiln_status_t status) {
  if (status == KILN_STATUS_OOM) return kiln_status_oom_message;
  return status ? status->message : "";
}

const char* kiln_status_code_string(kiln_status_code_t code) {
  switch (code) {
    case KILN_STATUS_OK:
      return "OK";
    case KILN_STATUS_CANCELLED:
      return "CANCELLED";
    case KILN_STATUS_UNKNOWN:
      return "UNKNOWN";
    case KILN_STATUS_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case KILN_STATUS_DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case KILN_STATUS_NOT_FOUND:
      return "NOT_FOUND";
    case KILN_STATUS_ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case KILN_STATUS_PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case KILN_STATUS_RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case KILN_STATUS_FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case KILN_STATUS_ABORTED:
      return "ABORTED";
    case KILN_STATUS_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case KILN_STATUS_UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case KILN_STATUS_INTERNAL:
      return "INTERNAL";
    case KILN_STATUS_UNAVAILABLE:
      return "UNAVAILABLE";
    case KILN_STATUS_DATA_LOSS:
      return "DATA_LOSS";
    case KILN_STATUS_UNAUTHENTICATED:
      return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

void kiln_status_free(kiln_status_t status) {
  if (status && status != KILN_STATUS_OOM) free(status);
}

kiln_status_code_t kiln_status_consume_code(kiln_status_t status) {
  kiln_status_code_t code = kiln_status_code(status);
  kiln_status_free(status);
  return code;
}

kiln_status_t kiln_status_clone(kiln_status_t status) {
  if (status == NULL || status == KILN_STATUS_OOM) return status;
  kiln_status_t copy = kiln_status_new(status->code, status->file, status->line,
                                       status->message_length);
  if (!copy) return KILN_STATUS_OOM;
  memcpy(copy->message, status->message, status->message_length + 1);
  return copy;
}

char* kiln_status_format(kiln_status_t status) {
  if (status == KILN_STATUS_OOM) status = NULL;  // no location to show
  const char* file = status ? status->file : "";
  const char* base = strrchr(file, '/');
  base = base ? base + 1 : file;
  const char* code = kiln_status_code_string(
      status ? kiln_status_code(status) : KILN_STATUS_RESOURCE_EXHAUSTED);
  const char* message = status ? kiln_status_message(status)
                               : kiln_status_oom_message;
  int length = status && status->line
                   ? snprintf(NULL, 0, "%s:%d: %s; %s", base, status->line,
                              code, message)
                   : snprintf(NULL, 0, "%s; %s", code, message);
  char* text = (char*)malloc((size_t)length + 1);
  if (!text) return NULL;
  if (status && status->line) {
    snprintf(text, (size_t)length + 1, "%s:%d: %s; %s", base, status->line,
             code, message);
  } else {
    snprintf(text, (size_t)length + 1, "%s; %s", code, message);
  }
  return text;
}

void kiln_status_fprint(FILE* stream, kiln_status_t status) {
  char* text = kiln_status_format(status);
  fprintf(stream, "%s\n", text ? text : kiln_status_message(status));
  free(text);
}

int kiln_status_report_and_exit_code(kiln_status_t status) {
  if (status == NULL) return 0;
  fprintf(stderr, "error: %s (%s)\n", kiln_status_message(status),
          kiln_status_code_string(kiln_status_code(status)));
  kiln_status_free(status);
  return 1;
}
