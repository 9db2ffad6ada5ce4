/* Reproduces libopusfile 0.12's leak on opus-ebadtimestamp-open-leak.opus without Interlude:
 * op_open_memory fails with OP_EBADTIMESTAMP (-139) and leaves 133 bytes of OpusTags behind.
 *   gcc opus-ebadtimestamp-open-leak.c -I/usr/include/opus -lopusfile -lopus -logg -o leak
 *   valgrind --leak-check=full ./leak opus-ebadtimestamp-open-leak.opus 0
 * reports "definitely lost: 68 bytes in 3 blocks, indirectly lost: 65 bytes in 2 blocks". */
#include <opusfile.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc,char**argv){ FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); long n=ftell(f); fseek(f,0,SEEK_SET); unsigned char*b=malloc(n); fread(b,1,n,f); fclose(f);
 int err; OggOpusFile*of=op_open_memory(b,n,&err); if(!of){printf("open failed %d\n",err); free(b); return 0;}
 int cont=atoi(argv[2]); float pcm[11520]; int holes=0;
 for(;;){ int r=op_read_float(of,pcm,11520,NULL); if(r==OP_HOLE){holes++; if(!cont) break; continue;} if(r<=0){printf("end %d\n",r); break;} }
 printf("holes %d\n",holes); op_free(of); free(b); return 0; }
