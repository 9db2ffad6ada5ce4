#include <vorbis/vorbisfile.h>
#include <stdio.h>
static long rd(OggVorbis_File*vf,const char*w){ float**pcm; long n,t=0; while((n=ov_read_float(vf,&pcm,1024,NULL))!=0){ if(n<0){fprintf(stderr,"%s read err %ld\n",w,n); if(t>100000)break; continue;} t+=n; if(t>48000)break;} fprintf(stderr,"%s read %ld\n",w,t); return t;}
int main(int c,char**v){FILE*f=fopen(v[1],"rb");OggVorbis_File vf;int r=ov_open_callbacks(f,&vf,NULL,0,OV_CALLBACKS_NOCLOSE);fprintf(stderr,"open %d\n",r);if(r)return 0;
long long n=ov_pcm_total(&vf,-1);fprintf(stderr,"total %lld\n",n);
float**pcm; long x=ov_read_float(&vf,&pcm,1024,NULL); fprintf(stderr,"first read %ld\n",x);
long long fr[]={0,n/2,n,n+1};for(int i=0;i<4;i++){int s=ov_pcm_seek(&vf,fr[i]);fprintf(stderr,"seek %lld -> %d\n",fr[i],s);if(s==0){x=ov_read_float(&vf,&pcm,1024,NULL);fprintf(stderr," read %ld\n",x);}}
ov_clear(&vf);fclose(f);return 0;}
