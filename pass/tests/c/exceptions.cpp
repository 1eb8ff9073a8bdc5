// Itanium C++ exceptions (landingpad/resume/invoke): accepted.
#include <stdexcept>
#include <string>

struct Guard {
  int *count;
  ~Guard() { ++*count; }
};

static int risky(int x) {
  if (x > 2)
    throw std::runtime_error("too big: " + std::to_string(x));
  return x * 2;
}

int run(int x) {
  int cleanups = 0;
  try {
    Guard g{&cleanups};
    return risky(x);
  } catch (const std::exception &e) {
    return -static_cast<int>(std::string(e.what()).size()) - cleanups;
  }
}
