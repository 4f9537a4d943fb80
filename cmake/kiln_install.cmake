# Installing kiln: the tools, the runtime as one static and one shared
# library (libkiln_runtime.{a,so}), its public headers, a CMake package
# (find_package(kiln) -> kiln::runtime, kiln::runtime_shared) and a
# pkg-config file (kiln-runtime.pc). The per-layer static libraries stay
# build-internal: an application links one library.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Headers install under <prefix>/include/kiln, keeping the "runtime/..."
# paths the headers use to include each other.
set(KILN_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/kiln)
set(KILN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)

# The combined libraries hold every kiln static library the session (the
# embedding API) links, directly or not; other link items (threads, libm,
# libdl) become the combined libraries' own dependencies.
function(kiln_collect_static_deps target out_var)
  set(seen ${${out_var}})
  if(target IN_LIST seen)
    return()
  endif()
  list(APPEND seen ${target})
  get_target_property(deps ${target} LINK_LIBRARIES)
  foreach(dep ${deps})
    if(TARGET ${dep} AND dep MATCHES "^kiln_")
      get_target_property(type ${dep} TYPE)
      if(type STREQUAL "STATIC_LIBRARY")
        kiln_collect_static_deps(${dep} seen)
      endif()
    endif()
  endforeach()
  set(${out_var} ${seen} PARENT_SCOPE)
endfunction()
set(KILN_RUNTIME_COMPONENTS)
kiln_collect_static_deps(kiln_runtime_session KILN_RUNTIME_COMPONENTS)
set(_kiln_runtime_objects)
foreach(lib ${KILN_RUNTIME_COMPONENTS})
  list(APPEND _kiln_runtime_objects $<TARGET_OBJECTS:${lib}>)
endforeach()

foreach(kind STATIC SHARED)
  if(kind STREQUAL "STATIC")
    set(target kiln_runtime)
  else()
    set(target kiln_runtime_shared)
  endif()
  add_library(${target} ${kind} ${_kiln_runtime_objects})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME kiln_runtime
                        LINKER_LANGUAGE C)
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${KILN_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC Threads::Threads m ${CMAKE_DL_LIBS})
endforeach()
set_target_properties(kiln_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(kiln_runtime_shared PROPERTIES EXPORT_NAME runtime_shared
                      VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR})
# A layer missing from the closure above fails here, not in the user's link.
# Not in sanitizer builds: their runtimes are linked into executables only,
# so an instrumented shared library has undefined sanitizer symbols.
if(NOT KILN_SANITIZER AND NOT KILN_BUILD_FUZZERS)
  target_link_options(kiln_runtime_shared PRIVATE -Wl,--no-undefined)
endif()
# In-tree users (add_subdirectory) get the same names as installed ones.
add_library(kiln::runtime ALIAS kiln_runtime)
add_library(kiln::runtime_shared ALIAS kiln_runtime_shared)

install(TARGETS kiln_runtime kiln_runtime_shared EXPORT kilnTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime
        DESTINATION ${KILN_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h"
        PATTERN "*_test*" EXCLUDE PATTERN "testing" EXCLUDE
        PATTERN "testdata" EXCLUDE)
install(EXPORT kilnTargets NAMESPACE kiln:: DESTINATION ${KILN_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/kilnConfig.cmake.in
  ${CMAKE_BINARY_DIR}/kilnConfig.cmake INSTALL_DESTINATION ${KILN_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/kilnConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/kilnConfig.cmake
        ${CMAKE_BINARY_DIR}/kilnConfigVersion.cmake
        DESTINATION ${KILN_INSTALL_CMAKEDIR})

# pkg-config: `pkg-config --cflags --libs kiln-runtime` links the shared
# library; `--static` adds the system libraries a static link needs.
set(KILN_PC_LIBS_PRIVATE "-lpthread -lm")
foreach(lib ${CMAKE_DL_LIBS})
  string(APPEND KILN_PC_LIBS_PRIVATE " -l${lib}")
endforeach()
# The prefix is found from the .pc file's own place, so that
# `cmake --install build --prefix DIR` (a prefix chosen after configuring)
# yields a correct file.
file(RELATIVE_PATH KILN_PC_PREFIX_FROM_PCFILEDIR
     /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" KILN_PC_PREFIX_FROM_PCFILEDIR
       "${KILN_PC_PREFIX_FROM_PCFILEDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/kiln-runtime.pc.in
               ${CMAKE_BINARY_DIR}/kiln-runtime.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/kiln-runtime.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Every tool executable under tools/ (bin/).
set(_kiln_tools)
file(GLOB _kiln_tool_dirs LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/tools/*)
foreach(dir ${_kiln_tool_dirs})
  if(IS_DIRECTORY ${dir} AND EXISTS ${dir}/CMakeLists.txt)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t ${targets})
      get_target_property(type ${t} TYPE)
      if(type STREQUAL "EXECUTABLE")
        list(APPEND _kiln_tools ${t})
      endif()
    endforeach()
  endif()
endforeach()
install(TARGETS ${_kiln_tools} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
