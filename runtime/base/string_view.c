#include "runtime/base/string_view.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

kiln_string_view_t kiln_make_cstring_view(const char* cstr) {
  return cstr ? kiln_make_string_view(cstr, strlen(cstr))
              : kiln_string_view_empty();
}

bool kiln_string_view_equal(kiln_string_view_t a, kiln_string_view_t b) {
  return a.size == b.size &&
         (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

bool kiln_string_view_equal_cstr(kiln_string_view_t a, const char* b) {
  return kiln_string_view_equal(a, kiln_make_cstring_view(b));
}

int kiln_string_view_compare(kiln_string_view_t a, kiln_string_view_t b) {
  size_t n = a.size < b.size ? a.size : b.size;
  int c = n ? memcmp(a.data, b.data, n) : 0;
  if (c) return c;
  return a.size < b.size ? -1 : (a.size > b.size ? 1 : 0);
}

bool kiln_string_view_starts_with(kiln_string_view_t sv,
                                  kiln_string_view_t prefix) {
  return sv.size >= prefix.size &&
         (prefix.size == 0 || memcmp(sv.data, prefix.data, prefix.size) == 0);
}

bool kiln_string_view_ends_with(kiln_string_view_t sv,
                                kiln_string_view_t suffix) {
  return sv.size >= suffix.size &&
         (suffix.size == 0 || memcmp(sv.data + sv.size - suffix.size,
                                     suffix.data, suffix.size) == 0);
}

size_t kiln_string_view_find_char(kiln_string_view_t sv, char c, size_t pos) {
  for (size_t i = pos; i < sv.size; ++i) {
    if (sv.data[i] == c) return i;
  }
  return SIZE_MAX;
}

kiln_string_view_t kiln_string_view_substr(kiln_string_view_t sv, size_t pos,
                                           size_t n) {
  if (pos > sv.size) pos = sv.size;
  if (n > sv.size - pos) n = sv.size - pos;
  return kiln_make_string_view(sv.data + pos, n);
}

kiln_string_view_t kiln_string_view_trim(kiln_string_view_t sv) {
  size_t begin = 0, end = sv.size;
  while (begin < end && isspace((unsigned char)sv.data[begin])) ++begin;
  while (end > begin && isspace((unsigned char)sv.data[end - 1])) --end;
  return kiln_make_string_view(sv.data + begin, end - begin);
}

size_t kiln_string_view_split(kiln_string_view_t sv, char c,
                              kiln_string_view_t* lhs,
                              kiln_string_view_t* rhs) {
  size_t index = kiln_string_view_find_char(sv, c, 0);
  if (index == SIZE_MAX) {
    if (lhs) *lhs = sv;
    if (rhs) *rhs = kiln_string_view_empty();
    return SIZE_MAX;
  }
  if (lhs) *lhs = kiln_make_string_view(sv.data, index);
  if (rhs)
    *rhs = kiln_make_string_view(sv.data + index + 1, sv.size - index - 1);
  return index;
}

// Copies |sv| into a NUL-terminated buffer for the strto* family.
static bool kiln_string_view_to_buffer(kiln_string_view_t sv, char* buffer,
                                       size_t capacity) {
  if (sv.size == 0 || sv.size >= capacity) return false;
  memcpy(buffer, sv.data, sv.size);
  buffer[sv.size] = 0;
  return !isspace((unsigned char)buffer[0]);
}

bool kiln_string_view_atoi_int64(kiln_string_view_t sv, int64_t* out) {
  char buffer[64];
  if (!kiln_string_view_to_buffer(sv, buffer, sizeof(buffer))) return false;
  char* end = NULL;
  errno = 0;
  long long value = strtoll(buffer, &end, 0);
  if (errno || *end) return false;
  *out = value;
  return true;
}

bool kiln_string_view_atoi_uint64(kiln_string_view_t sv, uint64_t* out) {
  char buffer[64];
  if (!kiln_string_view_to_buffer(sv, buffer, sizeof(buffer))) return false;
  if (buffer[0] == '-') return false;
  char* end = NULL;
  errno = 0;
  unsigned long long value = strtoull(buffer, &end, 0);
  if (errno || *end) return false;
  *out = value;
  return true;
}

bool kiln_string_view_atof(kiln_string_view_t sv, double* out) {
  char buffer[128];
  if (!kiln_string_view_to_buffer(sv, buffer, sizeof(buffer))) return false;
  char* end = NULL;
  errno = 0;
  double value = strtod(buffer, &end);
  if (*end) return false;
  *out = value;
  return true;
}

size_t kiln_string_view_parse_dimension(kiln_string_view_t sv, int64_t* out_dim,
                                        bool* out_overflow) {
  int64_t dim = 0;
  bool overflow = false;
  size_t i = 0;
  for (; i < sv.size && sv.data[i] >= '0' && sv.data[i] <= '9'; ++i) {
    int64_t digit = sv.data[i] - '0';
    if (overflow || dim > (INT64_MAX - digit) / 10) {
      overflow = true;  // keep reading: the whole number is the dimension
      continue;
    }
    dim = dim * 10 + digit;
  }
  *out_dim = overflow ? INT64_MAX : dim;
  *out_overflow = overflow;
  return i;
}
