/* gimso-test
 * expect: error invalid free of global object
 * line: 15
 * stdout:
 * | level 2
 */
// delete of a global object.
#include <cstdio>

struct Config {
    int level = 2;
};
Config global_config;

static void release(Config *c) { delete c; } /* BUG */

int main() {
    printf("level %d\n", global_config.level);
    release(&global_config);
}
