/* placeholder replaced by the dispatcher */
int main(void);
int main(void) { return 0; }
