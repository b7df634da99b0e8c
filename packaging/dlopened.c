/* Not part of hcclctl: a program that links the libraries hcclctl opens with dlopen
 * (cmd/cli/curlapi.c: libcurl), so that `make deb` can ask dpkg-shlibdeps for their packages
 * and versions as it does for the linked ones. It calls functions hcclctl calls, so the
 * dependency is not "useless" to dpkg-shlibdeps and its version is what those need. */
#include <curl/curl.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) /* never run: the reference is what counts */
		curl_easy_cleanup(curl_easy_init());
	return 0;
}
