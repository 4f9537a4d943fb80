// The HAL public API umbrella: include this to use devices, buffers, buffer
// views, command buffers, semaphores, fences and executables.
#ifndef KILN_RUNTIME_HAL_API_H_
#define KILN_RUNTIME_HAL_API_H_

#include "runtime/hal/allocator.h"         // IWYU pragma: export
#include "runtime/hal/buffer.h"            // IWYU pragma: export
#include "runtime/hal/buffer_view.h"       // IWYU pragma: export
#include "runtime/hal/command_buffer.h"    // IWYU pragma: export
#include "runtime/hal/device.h"            // IWYU pragma: export
#include "runtime/hal/driver_registry.h"   // IWYU pragma: export
#include "runtime/hal/element_type.h"      // IWYU pragma: export
#include "runtime/hal/executable.h"        // IWYU pragma: export
#include "runtime/hal/executable_cache.h"  // IWYU pragma: export
#include "runtime/hal/fence.h"             // IWYU pragma: export
#include "runtime/hal/profiling.h"         // IWYU pragma: export
#include "runtime/hal/semaphore.h"         // IWYU pragma: export

#endif  // KILN_RUNTIME_HAL_API_H_
