int sum_two(int *p) {
    int a = p[1];
    int b = p[2]; int c = p[3];
    return a + b + c;
}
