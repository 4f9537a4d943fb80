#include "runtime/tooling/flags.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/allocator.h"
#include "runtime/base/string_view.h"

static struct kiln_flag_t kiln_flag_def_help;
static struct kiln_flag_t kiln_flag_def_flagfile;

//===----------------------------------------------------------------------===//
// Registry state (the only process-wide mutable state of kiln_tooling)
//===----------------------------------------------------------------------===//

// A string copied into flag-owned memory; all are freed by kiln_flags_reset.
typedef struct kiln_flags_string_t {
  struct kiln_flags_string_t* next;
  char data[];
} kiln_flags_string_t;

static kiln_flag_t* kiln_flags_head = NULL;
static kiln_flags_string_t* kiln_flags_strings = NULL;
static const char* kiln_flags_program_name = NULL;
static const char* kiln_flags_usage = NULL;

void kiln_flag_register(kiln_flag_t* flag) {
  for (kiln_flag_t* f = kiln_flags_head; f; f = f->next) {
    if (f == flag) return;
  }
  flag->next = kiln_flags_head;
  kiln_flags_head = flag;
}

static kiln_flag_t* kiln_flag_lookup_sv(kiln_string_view_t name) {
  for (kiln_flag_t* f = kiln_flags_head; f; f = f->next) {
    if (kiln_string_view_equal_cstr(name, f->name)) return f;
  }
  return NULL;
}

kiln_flag_t* kiln_flag_lookup(const char* name) {
  return kiln_flag_lookup_sv(kiln_make_cstring_view(name));
}

void kiln_flags_set_usage(const char* program_name, const char* usage) {
  kiln_flags_program_name = program_name;
  kiln_flags_usage = usage;
}

const char* kiln_flag_type_name(kiln_flag_type_t type) {
  switch (type) {
    case KILN_FLAG_TYPE_BOOL:
      return "bool";
    case KILN_FLAG_TYPE_INT32:
      return "int32";
    case KILN_FLAG_TYPE_INT64:
      return "int64";
    case KILN_FLAG_TYPE_DOUBLE:
      return "double";
    case KILN_FLAG_TYPE_STRING:
      return "string";
    case KILN_FLAG_TYPE_STRING_LIST:
      return "string list";
    case KILN_FLAG_TYPE_FORWARD_LIST:
      return "forwarded list";
  }
  return "?";
}

// Copies |prefix| + |value| into a new NUL-terminated flag-owned string.
static kiln_status_t kiln_flags_copy_string(const char* prefix,
                                            kiln_string_view_t value,
                                            const char** out) {
  size_t prefix_length = prefix ? strlen(prefix) : 0;
  kiln_flags_string_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      kiln_allocator_system(), sizeof(*s) + prefix_length + value.size + 1,
      (void**)&s));
  if (prefix_length) memcpy(s->data, prefix, prefix_length);
  if (value.size) memcpy(s->data + prefix_length, value.data, value.size);
  s->data[prefix_length + value.size] = 0;
  s->next = kiln_flags_strings;
  kiln_flags_strings = s;
  *out = s->data;
  return kiln_ok_status();
}

static kiln_status_t kiln_flags_list_append(kiln_flag_string_list_t* list,
                                            const char* value) {
  if (list->count == list->capacity) {
    size_t new_capacity = list->capacity ? list->capacity * 2 : 8;
    const char** values = list->owned ? list->values : NULL;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        kiln_allocator_system(), new_capacity * sizeof(values[0]),
        (void**)&values));
    list->values = values;
    list->capacity = new_capacity;
    list->owned = true;
  }
  list->values[list->count++] = value;
  return kiln_ok_status();
}

static void kiln_flag_set_default(kiln_flag_t* flag) {
  switch (flag->type) {
    case KILN_FLAG_TYPE_BOOL:
      *(bool*)flag->storage = flag->default_value.b;
      break;
    case KILN_FLAG_TYPE_INT32:
      *(int32_t*)flag->storage = flag->default_value.i32;
      break;
    case KILN_FLAG_TYPE_INT64:
      *(int64_t*)flag->storage = flag->default_value.i64;
      break;
    case KILN_FLAG_TYPE_DOUBLE:
      *(double*)flag->storage = flag->default_value.f64;
      break;
    case KILN_FLAG_TYPE_STRING:
      *(const char**)flag->storage = flag->default_value.str;
      break;
    case KILN_FLAG_TYPE_STRING_LIST:
    case KILN_FLAG_TYPE_FORWARD_LIST: {
      kiln_flag_string_list_t* list = (kiln_flag_string_list_t*)flag->storage;
      if (list->owned)
        kiln_allocator_free(kiln_allocator_system(), list->values);
      memset(list, 0, sizeof(*list));
      break;
    }
  }
}

void kiln_flags_reset(void) {
  for (kiln_flag_t* f = kiln_flags_head; f; f = f->next) {
    kiln_flag_set_default(f);
  }
  while (kiln_flags_strings) {
    kiln_flags_string_t* next = kiln_flags_strings->next;
    kiln_allocator_free(kiln_allocator_system(), kiln_flags_strings);
    kiln_flags_strings = next;
  }
}

//===----------------------------------------------------------------------===//
// Value parsing
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_flag_bad_value(const kiln_flag_t* flag,
                                         kiln_string_view_t value,
                                         const char* expected) {
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "flag '--%s': '%.*s' is not a valid %s", flag->name,
                          KILN_SV_ARG(value), expected);
}

// Stores |value| into |flag|. |forward_prefix| is "--" for the
// "--name,rest" form of forwarding lists.
static kiln_status_t kiln_flag_set(kiln_flag_t* flag, kiln_string_view_t value,
                                   const char* forward_prefix) {
  switch (flag->type) {
    case KILN_FLAG_TYPE_BOOL: {
      if (value.size == 0 || kiln_string_view_equal_cstr(value, "true") ||
          kiln_string_view_equal_cstr(value, "1")) {
        *(bool*)flag->storage = true;
      } else if (kiln_string_view_equal_cstr(value, "false") ||
                 kiln_string_view_equal_cstr(value, "0")) {
        *(bool*)flag->storage = false;
      } else {
        return kiln_flag_bad_value(flag, value, "bool (true/false/1/0)");
      }
      return kiln_ok_status();
    }
    case KILN_FLAG_TYPE_INT32: {
      int64_t v = 0;
      if (!kiln_string_view_atoi_int64(value, &v) || v < INT32_MIN ||
          v > INT32_MAX) {
        return kiln_flag_bad_value(flag, value, "int32");
      }
      *(int32_t*)flag->storage = (int32_t)v;
      return kiln_ok_status();
    }
    case KILN_FLAG_TYPE_INT64: {
      int64_t v = 0;
      if (!kiln_string_view_atoi_int64(value, &v)) {
        return kiln_flag_bad_value(flag, value, "int64");
      }
      *(int64_t*)flag->storage = v;
      return kiln_ok_status();
    }
    case KILN_FLAG_TYPE_DOUBLE: {
      double v = 0;
      if (!kiln_string_view_atof(value, &v)) {
        return kiln_flag_bad_value(flag, value, "double");
      }
      *(double*)flag->storage = v;
      return kiln_ok_status();
    }
    case KILN_FLAG_TYPE_STRING: {
      // Strip one level of double quotes ("foo" -> foo) as IREE does, so
      // that flagfiles written for IREE read the same.
      if (value.size >= 2 && value.data[0] == '"' &&
          value.data[value.size - 1] == '"') {
        value = kiln_string_view_substr(value, 1, value.size - 2);
      }
      const char* copy = NULL;
      KILN_RETURN_IF_ERROR(kiln_flags_copy_string(NULL, value, &copy));
      *(const char**)flag->storage = copy;
      return kiln_ok_status();
    }
    case KILN_FLAG_TYPE_STRING_LIST:
    case KILN_FLAG_TYPE_FORWARD_LIST: {
      const char* copy = NULL;
      KILN_RETURN_IF_ERROR(
          kiln_flags_copy_string(forward_prefix, value, &copy));
      return kiln_flags_list_append((kiln_flag_string_list_t*)flag->storage,
                                    copy);
    }
  }
  return kiln_make_status(KILN_STATUS_INTERNAL, "flag '--%s' has bad type %d",
                          flag->name, (int)flag->type);
}

// Fails if two registered descriptors share a name.
static kiln_status_t kiln_flags_check_duplicates(void) {
  for (kiln_flag_t* a = kiln_flags_head; a; a = a->next) {
    for (kiln_flag_t* b = a->next; b; b = b->next) {
      if (strcmp(a->name, b->name) == 0) {
        return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                                "flag '--%s' is defined twice (%s and %s)",
                                a->name, a->file, b->file);
      }
    }
  }
  return kiln_ok_status();
}

// How one "--..." argument splits.
typedef struct kiln_flags_arg_t {
  kiln_flag_t* flag;
  kiln_string_view_t name;
  kiln_string_view_t value;
  bool has_value;       // "=" or "," present
  bool forward_prefix;  // "--name,rest" form
} kiln_flags_arg_t;

// Splits |arg| (without the leading "--") and looks up the flag.
static kiln_status_t kiln_flags_split_arg(kiln_string_view_t arg,
                                          kiln_flags_arg_t* out) {
  memset(out, 0, sizeof(*out));
  size_t eq = kiln_string_view_find_char(arg, '=', 0);
  size_t comma = kiln_string_view_find_char(arg, ',', 0);
  size_t split = eq;
  if (comma < eq) {
    // Only forwarding lists use ','; anything else keeps the whole name so the
    // error names it.
    kiln_flag_t* f =
        kiln_flag_lookup_sv(kiln_string_view_substr(arg, 0, comma));
    if (f && f->type == KILN_FLAG_TYPE_FORWARD_LIST) {
      split = comma;
      out->forward_prefix = true;
    }
  }
  out->name = kiln_string_view_substr(arg, 0, split);
  if (split != SIZE_MAX) {
    out->has_value = true;
    out->value = kiln_string_view_substr(arg, split + 1, SIZE_MAX);
  }
  out->flag = kiln_flag_lookup_sv(out->name);
  if (!out->flag) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown flag '--%.*s'; see --help",
                            KILN_SV_ARG(out->name));
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Flagfiles
//===----------------------------------------------------------------------===//

#define KILN_FLAGS_MAX_FLAGFILE_BYTES (16 * 1024 * 1024)

static kiln_status_t kiln_flags_read_file(const char* path, char** out_data,
                                          size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  FILE* file = fopen(path, "rb");
  if (!file) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cannot open flagfile '%s': %s", path,
                            strerror(errno));
  }
  kiln_allocator_t allocator = kiln_allocator_system();
  size_t size = 0, capacity = 4096;
  char* data = NULL;
  kiln_status_t status =
      kiln_allocator_malloc(allocator, capacity, (void**)&data);
  while (!status) {
    if (size == capacity) {
      capacity *= 2;
      status = kiln_allocator_realloc(allocator, capacity, (void**)&data);
      if (status) break;
    }
    size_t n = fread(data + size, 1, capacity - size, file);
    size += n;
    // A flagfile is a few lines: past this it is the wrong file (e.g.
    // /dev/zero), not one to read to exhaustion.
    if (size > KILN_FLAGS_MAX_FLAGFILE_BYTES) {
      status = kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                                "flagfile '%s' is larger than %d bytes", path,
                                KILN_FLAGS_MAX_FLAGFILE_BYTES);
      break;
    }
    if (n == 0) {
      if (ferror(file)) {
        status = kiln_make_status(KILN_STATUS_DATA_LOSS,
                                  "error reading flagfile '%s'", path);
      }
      break;
    }
  }
  fclose(file);
  if (status) {
    kiln_allocator_free(allocator, data);
    return status;
  }
  *out_data = data;
  *out_size = size;
  return kiln_ok_status();
}

static kiln_status_t kiln_flags_parse_file_impl(const char* path, int depth);

// Applies one "--name[=value]" string (no "--name value" form).
static kiln_status_t kiln_flags_apply(kiln_string_view_t arg, int depth) {
  if (!kiln_string_view_starts_with(arg, kiln_make_cstring_view("--"))) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "'%.*s' is not a flag (flags start with '--')",
                            KILN_SV_ARG(arg));
  }
  kiln_flags_arg_t parsed;
  KILN_RETURN_IF_ERROR(
      kiln_flags_split_arg(kiln_string_view_substr(arg, 2, SIZE_MAX), &parsed));
  if (strcmp(parsed.flag->name, "flagfile") == 0) {
    const char* path = NULL;
    KILN_RETURN_IF_ERROR(kiln_flags_copy_string(NULL, parsed.value, &path));
    return kiln_flags_parse_file_impl(path, depth + 1);
  }
  if (!parsed.has_value && parsed.flag->type != KILN_FLAG_TYPE_BOOL &&
      strcmp(parsed.flag->name, "help") != 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "flag '--%s' needs a value: --%s=<%s>",
                            parsed.flag->name, parsed.flag->name,
                            kiln_flag_type_name(parsed.flag->type));
  }
  return kiln_flag_set(parsed.flag, parsed.value,
                       parsed.forward_prefix ? "--" : NULL);
}

static kiln_status_t kiln_flags_parse_file_impl(const char* path, int depth) {
  if (depth > 16) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "flagfile '%s' nests too deeply (a cycle?)", path);
  }
  char* data = NULL;
  size_t size = 0;
  KILN_RETURN_IF_ERROR(kiln_flags_read_file(path, &data, &size));
  kiln_string_view_t rest = kiln_make_string_view(data, size);
  kiln_status_t status = kiln_ok_status();
  int line_number = 0;
  while (rest.size > 0 && !status) {
    kiln_string_view_t line;
    kiln_string_view_split(rest, '\n', &line, &rest);
    ++line_number;
    line = kiln_string_view_trim(line);
    if (line.size == 0 ||
        kiln_string_view_starts_with(line, kiln_make_cstring_view("#")) ||
        kiln_string_view_starts_with(line, kiln_make_cstring_view("//"))) {
      continue;
    }
    status = kiln_flags_apply(line, depth);
    if (status) {
      status = kiln_status_annotate_f(status, "at %s:%d", path, line_number);
    }
  }
  kiln_allocator_free(kiln_allocator_system(), data);
  return status;
}

kiln_status_t kiln_flags_parse_file(const char* path) {
  return kiln_flags_parse_file_impl(path, 0);
}

kiln_status_t kiln_flags_parse_one(const char* arg) {
  KILN_RETURN_IF_ERROR(kiln_flags_check_duplicates());
  return kiln_flags_apply(kiln_string_view_trim(kiln_make_cstring_view(arg)),
                          0);
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

kiln_status_t kiln_flags_parse(int* argc, char*** argv,
                               bool* out_help_printed) {
  if (out_help_printed) *out_help_printed = false;
  if (!argc || !argv || *argc <= 0) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_flags_check_duplicates());

  int count = *argc;
  char** args = *argv;
  int out = 1;  // next slot for a positional argument
  bool help = false;
  bool only_positional = false;
  for (int i = 1; i < count; ++i) {
    kiln_string_view_t arg = kiln_make_cstring_view(args[i]);
    if (only_positional ||
        !kiln_string_view_starts_with(arg, kiln_make_cstring_view("--"))) {
      args[out++] = args[i];
      continue;
    }
    if (arg.size == 2) {  // "--"
      only_positional = true;
      continue;
    }
    kiln_flags_arg_t parsed;
    KILN_RETURN_IF_ERROR(kiln_flags_split_arg(
        kiln_string_view_substr(arg, 2, SIZE_MAX), &parsed));
    if (strcmp(parsed.flag->name, "help") == 0) {
      help = true;
      continue;
    }
    if (!parsed.has_value && parsed.flag->type != KILN_FLAG_TYPE_BOOL) {
      // "--name value": take the next argument unless it is another flag.
      if (i + 1 < count && strncmp(args[i + 1], "--", 2) != 0) {
        parsed.value = kiln_make_cstring_view(args[++i]);
        parsed.has_value = true;
      } else {
        return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "flag '--%s' needs a value: --%s=<%s>",
                                parsed.flag->name, parsed.flag->name,
                                kiln_flag_type_name(parsed.flag->type));
      }
    }
    if (strcmp(parsed.flag->name, "flagfile") == 0) {
      const char* path = NULL;
      KILN_RETURN_IF_ERROR(kiln_flags_copy_string(NULL, parsed.value, &path));
      KILN_RETURN_IF_ERROR(kiln_flags_parse_file(path));
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_flag_set(parsed.flag, parsed.value,
                                       parsed.forward_prefix ? "--" : NULL));
  }
  if (out < count) args[out] = NULL;
  *argc = out;
  if (help) {
    kiln_flags_print_help(stdout);
    if (out_help_printed) *out_help_printed = true;
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// --help
//===----------------------------------------------------------------------===//

// The declaring file relative to the repository: the path from the last
// "runtime/", "tools/", "compiler/", "samples/" or "tests/" component on.
static const char* kiln_flag_display_file(const char* file) {
  static const char* const kRoots[] = {"/runtime/", "/tools/", "/compiler/",
                                       "/samples/", "/tests/"};
  const char* best = NULL;
  for (size_t r = 0; r < sizeof(kRoots) / sizeof(kRoots[0]); ++r) {
    for (const char* p = strstr(file, kRoots[r]); p;
         p = strstr(p + 1, kRoots[r])) {
      if (!best || p > best) best = p;
    }
  }
  return best ? best + 1 : file;
}

static int kiln_flag_compare(const void* a, const void* b) {
  const kiln_flag_t* fa = *(const kiln_flag_t* const*)a;
  const kiln_flag_t* fb = *(const kiln_flag_t* const*)b;
  int c = strcmp(kiln_flag_display_file(fa->file),
                 kiln_flag_display_file(fb->file));
  return c ? c : strcmp(fa->name, fb->name);
}

static void kiln_flag_print_default(FILE* file, const kiln_flag_t* flag) {
  fprintf(file, "# type: %s", kiln_flag_type_name(flag->type));
  switch (flag->type) {
    case KILN_FLAG_TYPE_BOOL:
      fprintf(file, ", default: %s", flag->default_value.b ? "true" : "false");
      break;
    case KILN_FLAG_TYPE_INT32:
      fprintf(file, ", default: %" PRId32, flag->default_value.i32);
      break;
    case KILN_FLAG_TYPE_INT64:
      fprintf(file, ", default: %" PRId64, flag->default_value.i64);
      break;
    case KILN_FLAG_TYPE_DOUBLE:
      fprintf(file, ", default: %g", flag->default_value.f64);
      break;
    case KILN_FLAG_TYPE_STRING:
      fprintf(file, ", default: \"%s\"",
              flag->default_value.str ? flag->default_value.str : "");
      break;
    case KILN_FLAG_TYPE_STRING_LIST:
    case KILN_FLAG_TYPE_FORWARD_LIST:
      fprintf(file, ", repeatable");
      break;
  }
  fprintf(file, "\n");
}

static void kiln_flag_print_value(FILE* file, const kiln_flag_t* flag) {
  // The parser's own flags are commented out so that --help output can be
  // fed back as a flagfile.
  if (flag == &kiln_flag_def_help || flag == &kiln_flag_def_flagfile) {
    fprintf(file, "# --%s%s\n", flag->name,
            flag == &kiln_flag_def_flagfile ? "=<path>" : "");
    return;
  }
  switch (flag->type) {
    case KILN_FLAG_TYPE_BOOL:
      fprintf(file, "--%s=%s\n", flag->name,
              *(bool*)flag->storage ? "true" : "false");
      break;
    case KILN_FLAG_TYPE_INT32:
      fprintf(file, "--%s=%" PRId32 "\n", flag->name, *(int32_t*)flag->storage);
      break;
    case KILN_FLAG_TYPE_INT64:
      fprintf(file, "--%s=%" PRId64 "\n", flag->name, *(int64_t*)flag->storage);
      break;
    case KILN_FLAG_TYPE_DOUBLE:
      fprintf(file, "--%s=%.17g\n", flag->name, *(double*)flag->storage);
      break;
    case KILN_FLAG_TYPE_STRING: {
      const char* v = *(const char**)flag->storage;
      fprintf(file, "--%s=%s\n", flag->name, v ? v : "");
      break;
    }
    case KILN_FLAG_TYPE_STRING_LIST:
    case KILN_FLAG_TYPE_FORWARD_LIST: {
      const kiln_flag_string_list_t* list =
          (const kiln_flag_string_list_t*)flag->storage;
      if (list->count == 0) fprintf(file, "# --%s=...\n", flag->name);
      for (size_t i = 0; i < list->count; ++i) {
        fprintf(file, "--%s=%s\n", flag->name, list->values[i]);
      }
      break;
    }
  }
}

void kiln_flags_print_help(FILE* file) {
  static const char kBanner[] =
      "# ===------------------------------------------------------------------"
      "===\n";
  if (kiln_flags_program_name) {
    fprintf(file, "# %s\n", kiln_flags_program_name);
  }
  if (kiln_flags_usage) fprintf(file, "%s\n", kiln_flags_usage);

  size_t count = 0;
  for (kiln_flag_t* f = kiln_flags_head; f; f = f->next) ++count;
  kiln_flag_t** sorted = NULL;
  if (count == 0 || kiln_status_consume_code(kiln_allocator_malloc(
                        kiln_allocator_system(), count * sizeof(*sorted),
                        (void**)&sorted)) != KILN_STATUS_OK) {
    return;
  }
  size_t i = 0;
  for (kiln_flag_t* f = kiln_flags_head; f; f = f->next) sorted[i++] = f;
  qsort(sorted, count, sizeof(*sorted), kiln_flag_compare);

  const char* last_file = NULL;
  for (i = 0; i < count; ++i) {
    const kiln_flag_t* flag = sorted[i];
    const char* display_file = kiln_flag_display_file(flag->file);
    if (!last_file || strcmp(display_file, last_file) != 0) {
      fprintf(file, "\n%s# Flags in %s\n%s", kBanner, display_file, kBanner);
      last_file = display_file;
    }
    fprintf(file, "\n");
    kiln_string_view_t help = kiln_make_cstring_view(flag->help);
    while (help.size > 0) {
      kiln_string_view_t line;
      kiln_string_view_split(help, '\n', &line, &help);
      fprintf(file, "# %.*s\n", KILN_SV_ARG(line));
    }
    kiln_flag_print_default(file, flag);
    kiln_flag_print_value(file, flag);
  }
  kiln_allocator_free(kiln_allocator_system(), sorted);
}

//===----------------------------------------------------------------------===//
// Built-in flags
//===----------------------------------------------------------------------===//

// Storage for the two flags handled by the parser itself; their values are
// never read.
static bool kiln_flag_help_storage = false;
static kiln_flag_t kiln_flag_def_help = {
    "help",
    KILN_FLAG_TYPE_BOOL,
    &kiln_flag_help_storage,
    "Prints this list of flags (it is a valid --flagfile) and exits.",
    __FILE__,
    {.b = false},
    NULL};
static const char* kiln_flag_flagfile_storage = NULL;
static kiln_flag_t kiln_flag_def_flagfile = {
    "flagfile",
    KILN_FLAG_TYPE_STRING,
    &kiln_flag_flagfile_storage,
    "Reads flags from a file, one per line (blank lines and lines starting\n"
    "with '#' or '//' are skipped), at the point where it appears.",
    __FILE__,
    {.str = ""},
    NULL};
__attribute__((constructor)) static void kiln_flags_register_builtins(void) {
  kiln_flag_register(&kiln_flag_def_help);
  kiln_flag_register(&kiln_flag_def_flagfile);
}

kiln_status_t kiln_flags_parse_command_line(
    const char* program, const char* usage, int positional_count,
    const char* positional_hint, int* argc, char*** argv, bool* out_help) {
  *out_help = false;
  kiln_flags_set_usage(program, usage);
  KILN_RETURN_IF_ERROR(kiln_flags_parse(argc, argv, out_help));
  if (*out_help) return kiln_ok_status();
  int given = *argc - 1;
  if (given > positional_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unexpected argument '%s'; %s (see --help)",
                            (*argv)[positional_count + 1], positional_hint);
  }
  if (given < positional_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "missing argument: %s (see --help)",
                            positional_hint);
  }
  return kiln_ok_status();
}
