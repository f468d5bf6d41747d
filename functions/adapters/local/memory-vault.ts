// VaultDocuments port in process memory (the local server and unit tests).
import type { VaultDocument, VaultDocuments } from '../../platform/ports';

const id = (vaultId: string, objectId: string) => JSON.stringify([vaultId, objectId]);

export class MemoryVault implements VaultDocuments {
  private readonly documents = new Map<string, VaultDocument>();

  async put(document: VaultDocument): Promise<void> {
    this.documents.set(id(document.vaultId, document.objectId), structuredClone(document));
  }

  async get(vaultId: string, objectId: string): Promise<VaultDocument | undefined> {
    const document = this.documents.get(id(vaultId, objectId));
    return document ? structuredClone(document) : undefined;
  }

  async delete(vaultId: string, objectId: string): Promise<void> {
    this.documents.delete(id(vaultId, objectId));
  }

  get size(): number {
    return this.documents.size;
  }
}
