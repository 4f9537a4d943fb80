// Command-line flags for kiln tools, declared where they are used, as IREE's
// are:
//
//   // in device_util.c
//   KILN_FLAG(string, device, "local-task", "Device URI to run on.");
//   ... use kiln_flag_device ...
//
//   // in a tool that also wants to read it
//   KILN_FLAG_DECLARE(string, device);
//
// Each KILN_FLAG defines a global `kiln_flag_<name>` holding the current value
// (initialized to the default) and registers a descriptor at load time with a
// constructor. Registration only links a static descriptor into a static list
// (no allocation, no ordering dependency between translation units), so it is
// safe in any constructor order. Descriptors can also be registered
// explicitly with kiln_flag_register for code that cannot use constructors.
//
// Flags are the only process-wide mutable state in the kiln runtime and they
// live only in kiln_tooling: libraries below it take explicit parameters.
//
// Syntax accepted by kiln_flags_parse:
//   --name=value            any type
//   --name value            non-bool flags, when the next argument does not
//                           start with "--"
//   --flag / --flag=true|false|1|0   bools
//   --list=a --list=b       repeatable (KILN_FLAG_LIST): every occurrence
//                           appends, in command-line order
//   --Xcompiler,foo=bar     forwarding lists (KILN_FLAG_FORWARD_LIST): stores
//                           "--foo=bar"; `--Xcompiler <arg>` stores <arg>
//   --flagfile=path         reads one flag per line (blank lines and lines
//                           starting with '#' or '//' are skipped)
//   --help                  prints every flag (sorted, grouped by the file
//                           that declared it) with type, default and help
//   --                      ends flags; everything after is positional
// Anything else not starting with "--" is a positional argument and is left
// in argv for the tool.
#ifndef KILN_RUNTIME_TOOLING_FLAGS_H_
#define KILN_RUNTIME_TOOLING_FLAGS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Flag descriptors
//===----------------------------------------------------------------------===//

typedef enum kiln_flag_type_e {
  KILN_FLAG_TYPE_BOOL = 0,
  KILN_FLAG_TYPE_INT32,
  KILN_FLAG_TYPE_INT64,
  KILN_FLAG_TYPE_DOUBLE,
  KILN_FLAG_TYPE_STRING,
  KILN_FLAG_TYPE_STRING_LIST,   // repeatable: --name=a --name=b
  KILN_FLAG_TYPE_FORWARD_LIST,  // --name,rest -> "--rest" (e.g. --Xcompiler)
} kiln_flag_type_t;

// Storage of a repeatable flag: |count| NUL-terminated values in command-line
// order. The strings point into argv or into memory owned by the flag system
// (released by kiln_flags_reset); callers never free them.
typedef struct kiln_flag_string_list_t {
  size_t count;
  const char** values;
  size_t capacity;  // private
  bool owned;       // private: |values| was allocated by the flag system
} kiln_flag_string_list_t;

// A default value, by type.
typedef union kiln_flag_default_t {
  bool b;
  int32_t i32;
  int64_t i64;
  double f64;
  const char* str;
} kiln_flag_default_t;

// A flag descriptor: static storage, registered once. Fields other than
// |next| are set by the declaring code (normally the KILN_FLAG macros).
typedef struct kiln_flag_t {
  const char* name;  // without the leading "--"
  kiln_flag_type_t type;
  void* storage;  // bool*, int32_t*, int64_t*, double*, const char**,
                  // kiln_flag_string_list_t*
  const char* help;
  const char* file;  // declaring source file (__FILE__), groups --help
  kiln_flag_default_t default_value;
  struct kiln_flag_t* next;  // private: registry link
} kiln_flag_t;

// Adds |flag| to the process registry. |flag| must outlive every use of the
// registry (static storage). Registering the same descriptor twice is a
// no-op; two descriptors with the same name make kiln_flags_parse fail with a
// message naming both files.
void kiln_flag_register(kiln_flag_t* flag);

// Returns the registered flag called |name| (no "--"), or NULL.
kiln_flag_t* kiln_flag_lookup(const char* name);

//===----------------------------------------------------------------------===//
// Declaration macros
//===----------------------------------------------------------------------===//

#define KILN_FLAG_CTYPE_bool bool
#define KILN_FLAG_CTYPE_int32 int32_t
#define KILN_FLAG_CTYPE_int64 int64_t
#define KILN_FLAG_CTYPE_double double
#define KILN_FLAG_CTYPE_string const char*
#define KILN_FLAG_ENUM_bool KILN_FLAG_TYPE_BOOL
#define KILN_FLAG_ENUM_int32 KILN_FLAG_TYPE_INT32
#define KILN_FLAG_ENUM_int64 KILN_FLAG_TYPE_INT64
#define KILN_FLAG_ENUM_double KILN_FLAG_TYPE_DOUBLE
#define KILN_FLAG_ENUM_string KILN_FLAG_TYPE_STRING
#define KILN_FLAG_FIELD_bool b
#define KILN_FLAG_FIELD_int32 i32
#define KILN_FLAG_FIELD_int64 i64
#define KILN_FLAG_FIELD_double f64
#define KILN_FLAG_FIELD_string str

// Defines `kiln_flag_<name>` of C type bool/int32_t/int64_t/double/
// const char* (|type| is bool, int32, int64, double or string) initialized
// to |default_value|, and registers it.
#define KILN_FLAG(type, name, default_value, help_text)                      \
  KILN_FLAG_CTYPE_##type kiln_flag_##name = (default_value);                 \
  static kiln_flag_t kiln_flag_def_##name = {                                \
      #name,                                                                 \
      KILN_FLAG_ENUM_##type,                                                 \
      &kiln_flag_##name,                                                     \
      (help_text),                                                           \
      __FILE__,                                                              \
      {.KILN_FLAG_FIELD_##type = (default_value)},                           \
      NULL};                                                                 \
  __attribute__((constructor)) static void kiln_flag_register_##name(void) { \
    kiln_flag_register(&kiln_flag_def_##name);                               \
  }

// Defines a repeatable string flag `kiln_flag_<name>` (a
// kiln_flag_string_list_t, initially empty), and registers it.
#define KILN_FLAG_LIST(name, help_text) \
  KILN_FLAG_LIST_OF_TYPE_(name, help_text, KILN_FLAG_TYPE_STRING_LIST)

// Defines a forwarding list: `--<name>,rest` appends "--rest" and
// `--<name> arg` appends "arg" (IREE's --Xcompiler,flag=value).
#define KILN_FLAG_FORWARD_LIST(name, help_text) \
  KILN_FLAG_LIST_OF_TYPE_(name, help_text, KILN_FLAG_TYPE_FORWARD_LIST)

#define KILN_FLAG_LIST_OF_TYPE_(name, help_text, flag_type)                  \
  kiln_flag_string_list_t kiln_flag_##name = {0, NULL, 0, false};            \
  static kiln_flag_t kiln_flag_def_##name = {                                \
      #name,         (flag_type), &kiln_flag_##name, (help_text), __FILE__,  \
      {.str = NULL}, NULL};                                                  \
  __attribute__((constructor)) static void kiln_flag_register_##name(void) { \
    kiln_flag_register(&kiln_flag_def_##name);                               \
  }

// Declares a flag defined in another file: `KILN_FLAG_DECLARE(int32, x);`.
#define KILN_FLAG_DECLARE(type, name) \
  extern KILN_FLAG_CTYPE_##type kiln_flag_##name
// Declares a list flag defined in another file.
#define KILN_FLAG_LIST_DECLARE(name) \
  extern kiln_flag_string_list_t kiln_flag_##name

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

// Sets the program name and usage text printed at the top of --help.
// Both must outlive the registry (string literals).
void kiln_flags_set_usage(const char* program_name, const char* usage);

// Parses and removes every flag from |*argc|/|*argv|, leaving argv[0] and the
// positional arguments, in order. If --help is present, prints the help
// (kiln_flags_print_help) to stdout and sets |*out_help_printed| (if non-NULL)
// so that the tool exits 0 without running. Errors are INVALID_ARGUMENT:
// "unknown flag '--foo'; see --help", "flag '--n': 'x' is not a valid int32",
// unreadable or malformed flagfiles (naming path:line). On error the flags
// parsed before the bad one keep their new values.
kiln_status_t kiln_flags_parse(int* argc, char*** argv, bool* out_help_printed);

// Parses one "--name=value" / "--name" string as if given on the command
// line (no positional arguments, no "--name value" form). |arg| is copied.
kiln_status_t kiln_flags_parse_one(const char* arg);

// Reads and applies a flagfile (what --flagfile=path does).
kiln_status_t kiln_flags_parse_file(const char* path);

// Prints the usage header and every registered flag to |file|, sorted by
// declaring file then name, as:
//   # ===----...
//   # Flags in runtime/tooling/device_util.c
//   # ===----...
//
//   # <help text, one '#' line per line>
//   # type: int32, default: 0
//   --task_topology_group_count=0
// The last line shows the current value, so the output is a valid flagfile.
void kiln_flags_print_help(FILE* file);

// What a tool's main does first: sets the usage text, parses the flags and
// checks that exactly |positional_count| positional arguments remain
// (INVALID_ARGUMENT otherwise, with |positional_hint| saying what is
// expected, e.g. "one replay file"). |*out_help| is set when --help was
// printed: the tool then exits 0.
kiln_status_t kiln_flags_parse_command_line(
    const char* program, const char* usage, int positional_count,
    const char* positional_hint, int* argc, char*** argv, bool* out_help);

// Restores every flag to its default and frees all memory the flag system
// allocated (list storage, flagfile contents). For tests and tool exit.
void kiln_flags_reset(void);

// Name of |type| as shown in --help: "bool", "int32", "int64", "double",
// "string", "string list", "forwarded list".
const char* kiln_flag_type_name(kiln_flag_type_t type);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_TOOLING_FLAGS_H_
