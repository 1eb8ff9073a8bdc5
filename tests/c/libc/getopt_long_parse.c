/* gimso-test
 * expect: run
 * stdout:
 * | -v
 * | -o out.txt
 * | -x (cluster)
 * | --level 3 (index 1)
 * | --quiet set flag (index 2)
 * | -o inline
 * | --name=widget
 * | --lev (abbreviation) 9
 * | -? for -z, optopt z
 * | operands from 14: in1 in2 in3
 * | posix: -a, then stop at 'file' (optind 2)
 * | required missing: ':' optopt o
 * | long_only -level 4
 */
/* GNU getopt_long over an argv the program builds: clustered short
 * options, attached and separate arguments, long options with '=' and
 * separate arguments, flag pointers, unique abbreviations, an unknown
 * option, operands permuted to the end, '+' ordering, a leading ':' and
 * getopt_long_only. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static int quiet;

int main(void) {
    char *args[] = {"prog", "-v", "in1", "-o", "out.txt", "-x", "--level", "3", "in2",
                    "--quiet", "-oinline", "--name=widget", "--lev", "9", "-z", "--",
                    "in3", NULL};
    int argc = (int)(sizeof args / sizeof args[0]) - 1;
    static struct option longs[] = {
        {"name", required_argument, NULL, 'n'},
        {"level", required_argument, NULL, 'l'},
        {"quiet", no_argument, &quiet, 1},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, args, "vo:x", longs, &index)) != -1) {
        switch (c) {
        case 'v': printf("-v\n"); break;
        case 'x': printf("-x (cluster)\n"); break;
        case 'o': printf("-o %s\n", optarg); break;
        case 'l':
            if (strcmp(args[optind - 2], "--lev") == 0)
                printf("--lev (abbreviation) %s\n", optarg);
            else
                printf("--level %s (index %d)\n", optarg, index);
            break;
        case 'n': printf("--name=%s\n", optarg); break;
        case 0: printf("--quiet set flag (index %d)\n", index); break;
        case '?': printf("-? for -z, optopt %c\n", optopt); break;
        default: printf("unexpected %d\n", c);
        }
    }
    printf("operands from %d:", optind);
    for (int i = optind; i < argc; i++)
        printf(" %s", args[i]);
    printf("\n");

    char *posix[] = {"prog", "-a", "file", "-b", NULL};
    optind = 0;
    while ((c = getopt(4, posix, "+ab")) != -1)
        printf("posix: -%c, ", c);
    printf("then stop at '%s' (optind %d)\n", posix[optind], optind);

    char *missing[] = {"prog", "-o", NULL};
    optind = 0;
    c = getopt(2, missing, ":o:");
    printf("required missing: '%c' optopt %c\n", c, optopt);

    char *lo[] = {"prog", "-level", "4", NULL};
    optind = 0;
    c = getopt_long_only(3, lo, "v", longs, NULL);
    printf("long_only -level %s\n", c == 'l' ? optarg : "?");
    return 0;
}
