/**
 * Media in S3-compatible object storage (AWS S3, MinIO, …), for sites whose API processes do not share a disk.
 * S3_URL is the endpoint, with the access key and secret as its user and password
 * (`https://KEY:SECRET@s3.example.org`); without them the SDK's own chain (environment, instance role) answers.
 * Paths are addressed path-style, which every S3-compatible server understands. `prefix` keeps several sites
 * (or test runs) apart in one bucket.
 */
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkedKey, contentTypeOfKey, type MediaStorage } from './port';

export interface S3Options {
  url: string;
  bucket: string;
  region: string;
  prefix?: string;
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** Connects and makes sure the bucket is there (creating it when the credentials may). */
export async function connectS3MediaStorage(options: S3Options): Promise<MediaStorage> {
  const endpoint = new URL(options.url);
  const credentials = endpoint.username
    ? { accessKeyId: decodeURIComponent(endpoint.username), secretAccessKey: decodeURIComponent(endpoint.password) }
    : undefined;
  endpoint.username = '';
  endpoint.password = '';
  const client = new S3Client({
    endpoint: endpoint.toString().replace(/\/$/, ''),
    region: options.region,
    forcePathStyle: true,
    ...(credentials ? { credentials } : {}),
  });
  const Bucket = options.bucket;
  const prefix = options.prefix ?? '';
  const objectKey = (key: string) => prefix + checkedKey(key);

  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    if (!isMissing(error)) throw error;
    await client.send(new CreateBucketCommand({ Bucket }));
  }

  return {
    name: 's3',
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: objectKey(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }),
      );
    },
    async get(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        // A ranged answer names the whole size after the slash: "bytes 0-99/12345".
        const size = Number(answer.ContentRange?.split('/')[1] ?? answer.ContentLength ?? 0);
        return { body: answer.Body as Readable, size, contentType: answer.ContentType ?? contentTypeOfKey(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { size: answer.ContentLength ?? 0, contentType: answer.ContentType ?? contentTypeOfKey(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(ContinuationToken ? { ContinuationToken } : {}) }),
        );
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(prefix.length);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
