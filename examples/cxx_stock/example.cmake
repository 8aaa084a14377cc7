# C++17: two std::threads running one lambda.  Built -O0 -g, like the C
# examples; its TSan variant needs a C++ compiler that links
# -fsanitize=thread (RACEGATE_CXX_TSAN).
enable_language(CXX)
racegate_example(cxx_stock
  SOURCES cxx_stock/cxx_stock.cpp
  FIXED_SOURCES cxx_stock/fixed/cxx_stock.cpp)
set_target_properties(ex_cxx_stock ex_cxx_stock_fixed PROPERTIES
  CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
if(RACEGATE_HAVE_TSAN)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=thread)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=thread)
  set(CMAKE_REQUIRED_LIBRARIES Threads::Threads)
  check_cxx_source_compiles([=[
#include <thread>
int main() { int x = 0; std::thread t([&x] { x = 1; }); t.join(); return x - 1; }
]=] RACEGATE_CXX_TSAN)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  unset(CMAKE_REQUIRED_LIBRARIES)
endif()
