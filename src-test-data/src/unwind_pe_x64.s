# Hand-written x64 functions for the PE unwind tests (regenerate-unwind.sh): every unwind code
# (.seh_* directives), chained unwind information, a handler with handler data, unwind v2 epilogs.
	.text
	.globl	mainCRTStartup
	.p2align	4
mainCRTStartup:                    # push, allocation, frame pointer at rsp+16
.seh_proc mainCRTStartup
	pushq	%rbp
	.seh_pushreg %rbp
	subq	$32, %rsp
	.seh_stackalloc 32
	leaq	16(%rsp), %rbp
	.seh_setframe %rbp, 16
	.seh_endprologue
	callq	push_alloc
	callq	alloc_large16
	callq	alloc_large32
	callq	save_regs
	callq	frame_saves
	callq	machframe
	callq	chained_parent
	callq	handler_func
	callq	v2_two_epilogs
	callq	v2_at_end
	xorl	%eax, %eax
	addq	$32, %rsp
	popq	%rbp
	retq
	.seh_endproc

	.globl	push_alloc
	.p2align	4
push_alloc:                        # PUSH_NONVOL (one needing REX) and ALLOC_SMALL
.seh_proc push_alloc
	pushq	%rsi
	.seh_pushreg %rsi
	pushq	%rdi
	.seh_pushreg %rdi
	pushq	%r12
	.seh_pushreg %r12
	subq	$48, %rsp
	.seh_stackalloc 48
	.seh_endprologue
	nop
	addq	$48, %rsp
	popq	%r12
	popq	%rdi
	popq	%rsi
	retq
	.seh_endproc

	.globl	alloc_large16
	.p2align	4
alloc_large16:                     # ALLOC_LARGE with a 16-bit size (in 8-byte units)
.seh_proc alloc_large16
	subq	$4096, %rsp
	.seh_stackalloc 4096
	.seh_endprologue
	addq	$4096, %rsp
	retq
	.seh_endproc

	.globl	alloc_large32
	.p2align	4
alloc_large32:                     # ALLOC_LARGE with a 32-bit size, SAVE_NONVOL_FAR, SAVE_XMM128_FAR
.seh_proc alloc_large32
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$1048576, %rsp
	.seh_stackalloc 1048576
	movq	%rdi, 600000(%rsp)
	.seh_savereg %rdi, 600000
	movaps	%xmm7, 700000(%rsp)
	.seh_savexmm %xmm7, 700000
	.seh_endprologue
	movaps	700000(%rsp), %xmm7
	movq	600000(%rsp), %rdi
	addq	$1048576, %rsp
	popq	%rbx
	retq
	.seh_endproc

	.globl	save_regs
	.p2align	4
save_regs:                         # SAVE_NONVOL and SAVE_XMM128 without a frame pointer
.seh_proc save_regs
	subq	$88, %rsp
	.seh_stackalloc 88
	movq	%rbx, 32(%rsp)
	.seh_savereg %rbx, 32
	movq	%r15, 40(%rsp)
	.seh_savereg %r15, 40
	movaps	%xmm6, 48(%rsp)
	.seh_savexmm %xmm6, 48
	movaps	%xmm15, 64(%rsp)
	.seh_savexmm %xmm15, 64
	.seh_endprologue
	movaps	64(%rsp), %xmm15
	movaps	48(%rsp), %xmm6
	movq	40(%rsp), %r15
	movq	32(%rsp), %rbx
	addq	$88, %rsp
	retq
	.seh_endproc

	.globl	frame_saves
	.p2align	4
frame_saves:                       # frame pointer r13 at rsp+32, then saves and a dynamic allocation
.seh_proc frame_saves
	pushq	%r13
	.seh_pushreg %r13
	subq	$64, %rsp
	.seh_stackalloc 64
	leaq	32(%rsp), %r13
	.seh_setframe %r13, 32
	movq	%rsi, 48(%rsp)
	.seh_savereg %rsi, 48
	movaps	%xmm8, 16(%rsp)
	.seh_savexmm %xmm8, 16
	.seh_endprologue
	subq	$256, %rsp
	leaq	-32(%r13), %rsp
	movaps	16(%rsp), %xmm8
	movq	48(%rsp), %rsi
	addq	$64, %rsp
	popq	%r13
	retq
	.seh_endproc

	.globl	machframe
	.p2align	4
machframe:                         # PUSH_MACHFRAME with an error code, then a push and an allocation
.seh_proc machframe
	.seh_pushframe @code
	pushq	%rax
	.seh_pushreg %rax
	subq	$8, %rsp
	.seh_stackalloc 8
	.seh_endprologue
	addq	$8, %rsp
	popq	%rax
	addq	$8, %rsp
	iretq
	.seh_endproc

	.globl	chained_parent
	.p2align	4
chained_parent:                    # its cold part, in .text$cold, has chained unwind information
.seh_proc chained_parent
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$32, %rsp
	.seh_stackalloc 32
	.seh_endprologue
	testl	%ecx, %ecx
	jne	.Lcold
.Lback:
	addq	$32, %rsp
	popq	%rbx
	retq
	.section .text$cold,"xr"
	.seh_startchained
	pushq	%rsi
	.seh_pushreg %rsi
	.seh_endprologue
.Lcold:
	callq	push_alloc
	popq	%rsi
	jmp	.Lback
	.seh_endchained
	.text
	.seh_endproc

	.globl	handler_func
	.p2align	4
handler_func:                      # exception and termination handler with handler data
.seh_proc handler_func
	.seh_handler my_handler, @unwind, @except
	pushq	%rbp
	.seh_pushreg %rbp
	movq	%rsp, %rbp
	.seh_setframe %rbp, 0
	.seh_endprologue
	popq	%rbp
	retq
	.seh_handlerdata
	.long	0x12345678
	.long	0x9abcdef0
	.text
	.seh_endproc

	.globl	my_handler
	.p2align	4
my_handler:                        # no unwind information (a leaf)
	xorl	%eax, %eax
	retq

	.globl	v2_two_epilogs
	.p2align	4
v2_two_epilogs:                    # unwind v2: two epilogs, the second at the end
.seh_proc v2_two_epilogs
	.seh_unwindversion 2
	pushq	%rsi
	.seh_pushreg %rsi
	pushq	%r13
	.seh_pushreg %r13
	subq	$40, %rsp
	.seh_stackalloc 40
	.seh_endprologue
	testl	%ecx, %ecx
	je	.Lv2b
	.seh_startepilogue
	addq	$40, %rsp
	.seh_unwindv2start
	popq	%r13
	popq	%rsi
	.seh_endepilogue
	retq
.Lv2b:
	.seh_startepilogue
	addq	$40, %rsp
	.seh_unwindv2start
	popq	%r13
	popq	%rsi
	.seh_endepilogue
	retq
	.seh_endproc

	.globl	v2_at_end
	.p2align	4
v2_at_end:                         # unwind v2: one epilog, not at the end (a trap follows it)
.seh_proc v2_at_end
	.seh_unwindversion 2
	pushq	%rbx
	.seh_pushreg %rbx
	subq	$16, %rsp
	.seh_stackalloc 16
	.seh_endprologue
	testl	%ecx, %ecx
	je	.Lv2trap
	.seh_startepilogue
	addq	$16, %rsp
	.seh_unwindv2start
	popq	%rbx
	.seh_endepilogue
	retq
.Lv2trap:
	ud2
	.seh_endproc
